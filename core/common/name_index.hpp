// name_index.hpp - a hash index from names to positions in a table its owner keeps.
//
// Where a std::unordered_map<std::string, size_t> holds a copy of every name in a node of its own
// (about 72 bytes a name), this keeps only positions in an open-addressed array (8 bytes a name
// or less) and reads the names from the owner's table, through name_at(position), whenever it
// compares or rehashes. A controller of 16,384 nodes looks every node up by name.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace drover {

class NameIndex {
  public:
    static constexpr uint32_t npos = UINT32_MAX;

    // The position filed under name, or npos. name_at(p) returns the name at position p.
    template <class NameAt>
    uint32_t find(std::string_view name, NameAt &&name_at) const {
        if (slots_.empty()) return npos;
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t i = hash(name) & mask;; i = (i + 1) & mask) {
            uint32_t s = slots_[i];
            if (s == 0) return npos;
            if (std::string_view(name_at(s - 1)) == name) return s - 1;
        }
    }

    // Files pos under name; false (nothing filed) when name is there already.
    template <class NameAt>
    bool insert(std::string_view name, uint32_t pos, NameAt &&name_at) {
        if ((count_ + 1) * 4 > slots_.size() * 3) grow(name_at);
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t i = hash(name) & mask;; i = (i + 1) & mask) {
            uint32_t &s = slots_[i];
            if (s == 0) {
                s = pos + 1;
                ++count_;
                return true;
            }
            if (std::string_view(name_at(s - 1)) == name) return false;
        }
    }

    // Room for n names without rehashing.
    void reserve(std::size_t n) {
        if (count_ == 0 && n * 4 > slots_.size() * 3) slots_.assign(capacity_for(n), 0);
    }

    void clear() {
        slots_.clear();
        count_ = 0;
    }

    std::size_t size() const { return count_; }

  private:
    static std::size_t hash(std::string_view s) { return std::hash<std::string_view>{}(s); }
    static std::size_t capacity_for(std::size_t n) {
        std::size_t c = 8;
        while (c * 3 < n * 4) c *= 2;
        return c;
    }
    template <class NameAt>
    void grow(NameAt &name_at) {
        std::vector<uint32_t> old;
        old.swap(slots_);
        slots_.assign(old.empty() ? 8 : old.size() * 2, 0);
        const std::size_t mask = slots_.size() - 1;
        for (uint32_t s : old) {
            if (s == 0) continue;
            std::size_t i = hash(name_at(s - 1)) & mask;
            while (slots_[i] != 0) i = (i + 1) & mask;
            slots_[i] = s;
        }
    }

    std::vector<uint32_t> slots_; // position + 1; 0 = empty
    std::size_t count_ = 0;
};

} // namespace drover
