#include "generators/batch.h"

#include <cstdio>
#include <set>

#include "generators/profile_cases.h"
#include "generators/valid_cases.h"
#include "oracle/core/prng.h"

namespace qconform {

namespace {

// The fields of a case, each delimited (a length or a fixed width), into one FNV-1a hash.
class Hasher {
 public:
  void Int(int64_t v) { h_.Bytes(&v, sizeof v); }
  void Bytes(const void* data, size_t n) { h_.Bytes(data, n); }
  void Text(const std::string& s) {
    Int(static_cast<int64_t>(s.size()));
    h_.Text(s);
  }
  uint64_t value() const { return h_.value(); }

 private:
  Fnv1a h_;
};

std::string GeneratedId(const OpSchema& s, const GeneratedCase& g) {
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(ContentHash(g.c)));
  return "gen-" + std::string(s.op().id_prefix) + std::to_string(s.since_version) +
         (g.rule.empty() ? "" : "-invalid") + "-" + std::string(hash, 12);
}

}  // namespace

uint64_t ContentHash(const Case& c) {
  Hasher h;
  h.Text(c.op_type), h.Text(c.domain), h.Int(c.opset), h.Text(c.profile);
  for (const auto& [name, a] : c.attributes) {
    h.Text(name), h.Int(static_cast<int64_t>(a.kind)), h.Int(a.i), h.Bytes(&a.f, sizeof a.f);
    h.Text(a.s);
    for (int64_t v : a.ints) h.Int(v);
  }
  for (const std::optional<Tensor>& t : c.inputs) {
    h.Int(t ? 1 : 0);
    if (!t) continue;
    h.Int(t->data_type), h.Int(t->is_initializer ? 1 : 0),
        h.Int(static_cast<int64_t>(t->shape.size()));
    for (int64_t d : t->shape) h.Int(d);
    for (size_t i = 0; i < t->codes.size(); ++i) h.Int(t->codes[i]);
  }
  return h.value();
}

std::vector<GeneratedCase> GenerateBatch(const BatchOptions& options) {
  const std::vector<const OpSchema*> schemas =
      options.schemas.empty() ? SchemasOf(OperatorKind::kDequantizeLinear) : options.schemas;
  std::vector<std::string> labels;
  for (const OpSchema* s : schemas) labels.push_back(s->label());
  std::set<std::string> seen;
  std::vector<GeneratedCase> out;
  for (int n = 0; n < options.count; ++n) {
    PrngChoices ch(StreamSeed(options.seed, "draw " + std::to_string(n)));
    const OpSchema& s = *schemas[PickByName(ch, "schema:", labels)];
    GeneratedCase g;
    if (GeneratesInvalid(s) && ch.Fork("invalid")->Chance(options.invalid_percent)) {
      g = GenerateInvalid(*ch.Fork("invalid case"), s, options.limits, options.extra_mutations);
    } else if (options.profile.empty()) {
      g.c = GenerateValid(*ch.Fork("valid case"), s, options.limits);
    } else if (std::optional<Case> c = GenerateForProfile(*ch.Fork("profile case"), s,
                                                          options.profile, options.limits)) {
      g.c = std::move(*c);
    } else {
      continue;  // the profile forbids this version
    }
    g.c.profile = options.profile;
    g.c.id = GeneratedId(s, g);
    if (!seen.insert(g.c.id).second) continue;  // the same content again adds nothing
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace qconform
