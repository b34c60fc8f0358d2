// What a backend on another machine costs, the network aside: a plugin behind exec protocol 3
// on a loopback TCP port (socat), against the same plugin on the local pipe (protocol 3, and 2,
// which passes directories by path).
#pragma once

#include <string>
#include <vector>

namespace qconform::bench {

// The table's lines (Markdown), one row per in-tree plugin that was built.
std::vector<std::string> LoopbackTable();

}  // namespace qconform::bench
