// bitmap_test.cpp - Bitmap's whole-map operations.
#include <gtest/gtest.h>

#include <vector>

#include "common/bitmap.hpp"

namespace drover {
namespace {

Bitmap make(std::size_t n, std::initializer_list<std::size_t> bits) {
    Bitmap b(n);
    for (std::size_t i : bits) b.set(i);
    return b;
}

std::vector<std::size_t> bits_of(const Bitmap &b) {
    std::vector<std::size_t> out;
    for (std::size_t i = b.next(0); i < b.size(); i = b.next(i + 1)) out.push_back(i);
    return out;
}

TEST(Bitmap, SetAllKeepsTailClear) {
    for (std::size_t n : {0u, 1u, 63u, 64u, 65u, 127u, 128u, 1000u}) {
        Bitmap b(n);
        b.set_all();
        EXPECT_EQ(b.count(), n) << n;
        EXPECT_EQ(b.any(), n > 0) << n;
        if (n % 64 != 0) {
            EXPECT_EQ(b.words()[n / 64] >> (n % 64), 0u) << n;
        }
        b.clear_all();
        EXPECT_EQ(b.count(), 0u);
        EXPECT_FALSE(b.any());
    }
}

TEST(Bitmap, Next) {
    struct Case {
        std::size_t n;
        std::vector<std::size_t> bits;
    };
    const Case cases[] = {
        {0, {}},
        {10, {}},
        {10, {0}},
        {10, {9}},
        {64, {63}},
        {65, {64}},
        {200, {0, 63, 64, 127, 128, 199}},
    };
    for (const auto &c : cases) {
        Bitmap b(c.n);
        for (std::size_t i : c.bits) b.set(i);
        EXPECT_EQ(bits_of(b), c.bits);
        EXPECT_EQ(b.count(), c.bits.size());
        EXPECT_EQ(b.next(c.n), c.n);
        EXPECT_EQ(b.next(c.n + 100), c.n);
    }
}

TEST(Bitmap, Algebra) {
    Bitmap a = make(130, {1, 2, 64, 129});
    Bitmap b = make(130, {2, 3, 64, 100});
    Bitmap x = a;
    x &= b;
    EXPECT_EQ(bits_of(x), (std::vector<std::size_t>{2, 64}));
    x = a;
    x |= b;
    EXPECT_EQ(bits_of(x), (std::vector<std::size_t>{1, 2, 3, 64, 100, 129}));
    x = a;
    x.subtract(b);
    EXPECT_EQ(bits_of(x), (std::vector<std::size_t>{1, 129}));
    EXPECT_TRUE(x == make(130, {1, 129}));
}

TEST(Bitmap, AlgebraWithShorterOperand) {
    Bitmap a = make(130, {1, 100});
    Bitmap shorter = make(10, {1, 2});
    Bitmap x = a;
    x &= shorter;
    EXPECT_EQ(bits_of(x), (std::vector<std::size_t>{1}));
    x = a;
    x |= shorter;
    EXPECT_EQ(bits_of(x), (std::vector<std::size_t>{1, 2, 100}));
    x = a;
    x.subtract(shorter);
    EXPECT_EQ(bits_of(x), (std::vector<std::size_t>{100}));
    Bitmap s = shorter;
    s |= make(130, {5, 100});
    EXPECT_EQ(bits_of(s), (std::vector<std::size_t>{1, 2, 5}));
}

} // namespace
} // namespace drover
