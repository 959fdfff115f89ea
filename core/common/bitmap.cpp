// bitmap.cpp - the whole-bitmap operations of drover::Bitmap (count, scan, set algebra).
#include "common/bitmap.hpp"

#include <algorithm>
#include <bit>

namespace drover {

namespace {
// Mask of the valid bits in the last word of an n-bit map (all ones when n is a multiple of 64).
uint64_t tail_mask(std::size_t nbits) {
    std::size_t r = nbits & 63;
    return r == 0 ? ~uint64_t{0} : (uint64_t{1} << r) - 1;
}
} // namespace

void Bitmap::clear_all() {
    std::fill(words_.begin(), words_.end(), 0);
}

void Bitmap::set_all() {
    std::fill(words_.begin(), words_.end(), ~uint64_t{0});
    if (!words_.empty()) words_.back() &= tail_mask(nbits_);
}

std::size_t Bitmap::count() const {
    std::size_t n = 0;
    for (uint64_t w : words_) n += static_cast<std::size_t>(std::popcount(w));
    return n;
}

bool Bitmap::any() const {
    return std::any_of(words_.begin(), words_.end(), [](uint64_t w) { return w != 0; });
}

std::size_t Bitmap::next(std::size_t from) const {
    if (from >= nbits_) return nbits_;
    std::size_t wi = from >> 6;
    uint64_t w = words_[wi] & (~uint64_t{0} << (from & 63));
    while (true) {
        if (w != 0) {
            std::size_t i = (wi << 6) + static_cast<std::size_t>(std::countr_zero(w));
            return i < nbits_ ? i : nbits_;
        }
        if (++wi >= words_.size()) return nbits_;
        w = words_[wi];
    }
}

// Operands of different sizes: bits the other map does not have count as clear.
Bitmap &Bitmap::operator&=(const Bitmap &o) {
    std::size_t n = std::min(words_.size(), o.words_.size());
    for (std::size_t i = 0; i < n; ++i) words_[i] &= o.words_[i];
    for (std::size_t i = n; i < words_.size(); ++i) words_[i] = 0;
    return *this;
}

Bitmap &Bitmap::operator|=(const Bitmap &o) {
    std::size_t n = std::min(words_.size(), o.words_.size());
    for (std::size_t i = 0; i < n; ++i) words_[i] |= o.words_[i];
    if (!words_.empty()) words_.back() &= tail_mask(nbits_);
    return *this;
}

Bitmap &Bitmap::subtract(const Bitmap &o) {
    std::size_t n = std::min(words_.size(), o.words_.size());
    for (std::size_t i = 0; i < n; ++i) words_[i] &= ~o.words_[i];
    return *this;
}

} // namespace drover
