// Generated cases are named by their content and drawn from named streams, so that growing the
// generators moves only the cases the growth takes: a baseline line names the same case before
// and after, and a reviewer sees only the lines the change is about.
#include <gtest/gtest.h>

#include <functional>
#include <map>

#include "generators/batch.h"

namespace qconform {
namespace {

BatchOptions Options() {
  BatchOptions o;
  o.seed = 20261122;
  o.count = 600;
  for (OperatorKind k : {OperatorKind::kDequantizeLinear, OperatorKind::kQuantizeLinear,
                         OperatorKind::kDynamicQuantizeLinear}) {
    for (const OpSchema* s : SchemasOf(k)) o.schemas.push_back(s);
  }
  return o;
}

// Every case of `before` is in `after` with the same id and content, except the ones the change
// took; every case new in `after` is one the change made (`changed`), one for each case taken.
void ExpectOnlyTakenCasesMove(const std::vector<GeneratedCase>& before,
                              const std::vector<GeneratedCase>& after,
                              const std::function<bool(const GeneratedCase&)>& changed) {
  std::map<std::string, const GeneratedCase*> old_ids, new_ids;
  for (const GeneratedCase& g : before) old_ids[g.c.id] = &g;
  for (const GeneratedCase& g : after) new_ids[g.c.id] = &g;
  size_t moved = 0, added = 0;
  for (const GeneratedCase& g : before) {
    auto it = new_ids.find(g.c.id);
    if (it == new_ids.end()) {
      ++moved;
      continue;
    }
    EXPECT_EQ(it->second->c, g.c) << g.c.id << " kept its id but not its content";
    EXPECT_EQ(it->second->rule, g.rule) << g.c.id;
  }
  for (const GeneratedCase& g : after) {
    if (old_ids.count(g.c.id)) continue;
    ++added;
    EXPECT_TRUE(changed(g)) << g.c.id << " is new, but the change did not make it";
  }
  EXPECT_GT(moved, 0u) << "the change took no case: the test proves nothing";
  EXPECT_LT(moved, before.size() / 4) << "the change moved " << moved << " of " << before.size();
  EXPECT_EQ(moved, added);
}

TEST(StableIds, IdsDeriveFromContent) {
  const std::vector<GeneratedCase> a = GenerateBatch(Options()), b = GenerateBatch(Options());
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].c.id, b[i].c.id);
    GeneratedCase edited = a[i];
    edited.c.opset += 1;
    EXPECT_NE(ContentHash(edited.c), ContentHash(a[i].c)) << a[i].c.id;
  }
}

TEST(StableIds, AddingAMutationKindMovesOnlyTheCasesItTakes) {
  BatchOptions grown = Options();
  grown.extra_mutations.push_back({"attr.undefined-test",
                                   {OperatorKind::kDequantizeLinear, OperatorKind::kQuantizeLinear},
                                   [](const OpSchema&, const Case&) { return true; },
                                   [](Choices& ch, const OpSchema&, Case& c) {
                                     c.attributes["qconform_test_mutation"] =
                                         Attribute::Int(static_cast<int64_t>(ch.Below(3)));
                                   }});
  ExpectOnlyTakenCasesMove(
      GenerateBatch(Options()), GenerateBatch(grown),
      [](const GeneratedCase& g) { return g.c.attribute("qconform_test_mutation") != nullptr; });
}

TEST(StableIds, AddingAGeneratorBranchMovesOnlyTheCasesItFiresOn) {
  BatchOptions grown = Options();
  grown.limits.extra_branches.push_back(
      {"test-branch", 10, [](Choices& ch, const OpSchema&, Case& c) {
         c.attributes["qconform_test_branch"] = Attribute::Int(static_cast<int64_t>(ch.Below(3)));
       }});
  ExpectOnlyTakenCasesMove(
      GenerateBatch(Options()), GenerateBatch(grown),
      [](const GeneratedCase& g) { return g.c.attribute("qconform_test_branch") != nullptr; });
}

}  // namespace
}  // namespace qconform
