#include "verdict/narrowing.h"

#include "oracle/core/codec.h"
#include "oracle/core/element_type.h"

namespace qconform {

Narrowed NarrowWidened(const BackendResult& observed) {
  Narrowed n;
  n.outputs = observed.outputs;
  for (const Widening& w : observed.widened) {
    if (w.output >= n.outputs.size()) continue;  // the judge reports the missing output
    Tensor& t = n.outputs[w.output];
    const ElementType* original = FindElementType(w.original_type);
    const ElementType* carried = FindElementType(t.data_type);
    if (original == nullptr || carried == nullptr || t.data_type != w.carried_type) continue;
    Codes codes(original->bits, t.codes.size());
    for (size_t i = 0; i < t.codes.size(); ++i) {
      const Exact v = Decode(*carried, t.codes[i]);
      const std::optional<uint32_t> code = Encode(*original, v, Saturation::kNone);
      const bool exact =
          code && (v.is_nan() ? Decode(*original, *code).is_nan() : Decode(*original, *code) == v);
      if (!exact) {
        ++n.unrepresentable;
        if (n.problems.size() < 20) {
          n.problems.push_back("output " + std::to_string(w.output) + "[i=" + std::to_string(i) +
                               "] came back as " + DescribeCode(*carried, t.codes[i]) +
                               ", which is no " + std::string(original->name) + " value");
        }
        continue;
      }
      codes.set(i, *code);
    }
    t.data_type = w.original_type;
    t.codes = std::move(codes);
  }
  return n;
}

std::string DescribeWidening(const std::vector<Widening>& widened,
                             const std::vector<std::string>& names) {
  std::string out;
  for (const Widening& w : widened) {
    if (!out.empty()) out += "; ";
    out += (w.output < names.size() ? names[w.output] : "output " + std::to_string(w.output)) +
           ": " + DataTypeName(w.original_type) + " carried as " + DataTypeName(w.carried_type);
  }
  return out;
}

}  // namespace qconform
