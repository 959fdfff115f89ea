// shared_value_test.cpp - Shared<T> (one block for every copy of a value), TextPool (one block per
// distinct text) and NameIndex (names to positions in a table kept elsewhere).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/name_index.hpp"
#include "common/shared_value.hpp"
#include "common/text_pool.hpp"

namespace drover {
namespace {

TEST(Shared, CopiesShareOneBlockAndAssignmentReplacesIt) {
    Shared<std::string> a{"10.1.0.1"};
    Shared<std::string> b = a;
    EXPECT_EQ(&a.get(), &b.get()); // one block
    EXPECT_FALSE(a.unique());
    EXPECT_EQ(b, "10.1.0.1");
    EXPECT_EQ(b, std::string("10.1.0.1"));
    EXPECT_EQ(b, a);
    b = std::string("10.1.0.2"); // a new block: a keeps its value
    EXPECT_EQ(a, "10.1.0.1");
    EXPECT_EQ(b.get(), "10.1.0.2");
    EXPECT_TRUE(a.unique());
    const std::string &text = a; // reads as the value
    EXPECT_EQ(text.size(), 8u);
}

TEST(Shared, EmptyHoldsNoBlock) {
    Shared<std::string> e, from_empty{std::string()};
    EXPECT_TRUE(e.empty());
    EXPECT_TRUE(from_empty.empty());
    EXPECT_EQ(e.get(), "");
    EXPECT_EQ(e, from_empty);
    EXPECT_FALSE(e.unique());
    Shared<std::string> s{"x"};
    s.clear();
    EXPECT_TRUE(s.empty());
    EXPECT_EQ(sizeof(Shared<std::string>), sizeof(void *));
}

TEST(Shared, ListsReadAsLists) {
    Shared<std::vector<std::string>> f{std::vector<std::string>{"gpu", "big"}};
    std::vector<std::string> seen;
    for (const std::string &x : f) seen.push_back(x);
    EXPECT_EQ(seen, (std::vector<std::string>{"gpu", "big"}));
    EXPECT_EQ(f, (std::vector<std::string>{"gpu", "big"}));
    EXPECT_EQ(f->size(), 2u);
    Shared<std::vector<std::string>> none;
    EXPECT_TRUE(none->empty());
}

TEST(TextPool, SameTextSameBlockAndUnusedTextsAreDropped) {
    TextPool pool;
    Shared<std::string> a = pool.get("Not responding");
    Shared<std::string> b = pool.get(std::string("Not responding"));
    EXPECT_EQ(&a.get(), &b.get());
    EXPECT_TRUE(pool.get("").empty());
    EXPECT_EQ(pool.size(), 1u);
    // Texts nobody holds any more go when the pool has grown enough to sweep.
    for (int i = 0; i < 200; ++i) pool.get("reason " + std::to_string(i));
    EXPECT_LT(pool.size(), 100u);
    EXPECT_EQ(&pool.get("Not responding").get(), &a.get()); // still held, still shared
}

TEST(NameIndex, FindsInsertsAndRefusesDuplicates) {
    std::vector<std::string> names;
    NameIndex index;
    auto at = [&](uint32_t i) -> const std::string & { return names[i]; };
    EXPECT_EQ(index.find("n1", at), NameIndex::npos);
    for (int i = 0; i < 5000; ++i) {
        names.push_back("n" + std::to_string(i));
        ASSERT_TRUE(index.insert(names.back(), uint32_t(i), at));
    }
    EXPECT_EQ(index.size(), 5000u);
    EXPECT_FALSE(index.insert("n42", 7, at));
    EXPECT_EQ(index.size(), 5000u);
    for (int i = 0; i < 5000; i += 7)
        EXPECT_EQ(index.find("n" + std::to_string(i), at), uint32_t(i));
    EXPECT_EQ(index.find("n5000", at), NameIndex::npos);
    EXPECT_EQ(index.find("", at), NameIndex::npos);
    index.clear();
    EXPECT_EQ(index.find("n1", at), NameIndex::npos);
    index.reserve(100);
    EXPECT_TRUE(index.insert("n1", 1, at));
    EXPECT_EQ(index.find("n1", at), 1u);
}

} // namespace
} // namespace drover
