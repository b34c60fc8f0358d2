#include "tools/commands.h"

namespace qconform::tools {

namespace {

constexpr Command kCommands[] = {
    {"selfcheck", "decode and re-encode every code of every type of at most 16 bits",
     "usage: qconform selfcheck\n\n"
     "Decodes every code of every element type of at most 16 bits to its exact value and encodes\n"
     "it back, through the exact (multiprecision) path and the fast (double) path, and prints a\n"
     "table per type. Exit 0 when every code comes back, 1 otherwise.\n\n"
     "example:\n  qconform selfcheck\n",
     RunSelfcheck},
};

}  // namespace

std::span<const Command> AllCommands() {
  return kCommands;
}

}  // namespace qconform::tools
