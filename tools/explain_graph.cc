#include "tools/explain_graph.h"

#include <cstdio>

#include "oracle/core/admitted_range.h"
#include "oracle/semantics/graph/graph_oracle.h"

namespace qconform::tools {

void ExplainGraph(const Case& c, const OracleResult& result, int64_t index,
                  const Observed& observed) {
  std::printf("a graph (%s) of %zu nodes, judged as the chain of its nodes (d32):\n",
              GraphPattern(c).c_str(), c.graph.size());
  for (const Node& node : c.graph) {
    std::string in;
    for (const std::string& name : node.inputs) in += (in.empty() ? "" : ", ") + name;
    std::printf("  %-10s %s(%s) -> %s\n", node.name.c_str(), node.op_type.c_str(), in.c_str(),
                node.outputs.empty() ? "" : node.outputs[0].c_str());
  }
  const OutputEvaluation& y = result.outputs.at(0);
  const ElementType& t = *FindElementType(y.data_type);
  const auto i = static_cast<size_t>(index);
  std::printf("\n  %s[%lld]:\n", y.name.c_str(), static_cast<long long>(index));
  std::printf("    exact                   -> %s\n", Show(t, y.exact[i]).c_str());
  if (y.is_free(i)) {
    std::printf(
        "    admitted                   any value (a NaN on the way: implementation-defined)\n");
  } else {
    const CodeRange r = y.range(i);
    std::printf("    admitted                   %s .. %s\n", Show(t, r.lo).c_str(),
                Show(t, r.hi).c_str());
    const std::string rule = y.describe_range ? y.describe_range(index) : "";
    std::printf(
        "    because                    %s\n",
        rule.empty() ? "every float step is exact (B = 0): the exact value alone" : rule.c_str());
  }
  if (observed) {
    const bool in = y.is_free(i) || InRange(t, y.range(i), *observed);
    std::printf("    backend                 -> %s  %s\n", Show(t, *observed).c_str(),
                in ? "(admitted)" : "(outside the admitted range)");
  }
}

}  // namespace qconform::tools
