// Every compute workload, in the order of the tables, and one by name (built once).
#include <cstdlib>

#include "bench/compute_workloads.h"

namespace qconform::bench {

std::vector<ComputeWorkload> ComputeWorkloads() {
  std::vector<ComputeWorkload> all = MatMulWorkloads();
  for (ComputeWorkload& w : ConvWorkloads()) all.push_back(std::move(w));
  for (ComputeWorkload& w : QLinearGroupWorkloads()) all.push_back(std::move(w));
  for (ComputeWorkload& w : NBitsWorkloads()) all.push_back(std::move(w));
  for (ComputeWorkload& w : ToFloatWorkloads()) all.push_back(std::move(w));
  for (ComputeWorkload& w : GatherWorkloads()) all.push_back(std::move(w));
  return all;
}

const ComputeWorkload& ComputeNamed(const std::string& name) {
  static const std::vector<ComputeWorkload> all = ComputeWorkloads();
  for (const ComputeWorkload& w : all) {
    if (w.name == name) return w;
  }
  std::abort();
}

}  // namespace qconform::bench
