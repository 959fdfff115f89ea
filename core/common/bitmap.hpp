// bitmap.hpp - fixed-size bitmaps of node indexes, as the design paper's node selection uses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace drover {

class Bitmap {
  public:
    Bitmap() = default;
    explicit Bitmap(std::size_t nbits) : words_((nbits + 63) / 64, 0), nbits_(nbits) {}

    std::size_t size() const { return nbits_; }
    bool test(std::size_t i) const { return (words_[i >> 6] >> (i & 63)) & 1u; }
    void set(std::size_t i) { words_[i >> 6] |= uint64_t{1} << (i & 63); }
    void clear(std::size_t i) { words_[i >> 6] &= ~(uint64_t{1} << (i & 63)); }
    void clear_all();
    void set_all();
    std::size_t count() const;
    bool any() const;
    // Index of the first set bit at or after from, or size() if none.
    std::size_t next(std::size_t from) const;

    Bitmap &operator&=(const Bitmap &o);
    Bitmap &operator|=(const Bitmap &o);
    // this &= ~o
    Bitmap &subtract(const Bitmap &o);
    bool operator==(const Bitmap &o) const = default;

    const uint64_t *words() const { return words_.data(); }
    uint64_t *words() { return words_.data(); }

  private:
    std::vector<uint64_t> words_;
    std::size_t nbits_ = 0;
};

} // namespace drover
