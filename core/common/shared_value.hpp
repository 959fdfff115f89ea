// shared_value.hpp - Shared<T>: an immutable value held once and shared by every copy.
//
// A config line such as "NodeName=lx[00001-16384] NodeAddr=10.1.0.1 Feature=a,b Gres=gpu:4" gives
// every node of the range the same address, features and resources; the controller's nodes
// report the same OS and version. Stored as a std::string each, a node spends 32 bytes a field
// and a heap block besides for any text longer than 15 characters. A Shared<T> is one pointer
// (8 bytes): copies share one reference-counted block, and the empty value needs none. It reads
// as a const T & (implicit conversion, get(), ->) and compares with T and what T compares with;
// assigning a new value replaces the block, never changes it, so a copy elsewhere keeps its own.
#pragma once

#include <atomic>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace drover {

template <class T>
class Shared {
  public:
    Shared() = default;
    Shared(T value) : block_(value == T{} ? nullptr : new Block{{1}, std::move(value)}) {}
    // Text from a literal or a view (Shared<std::string> only).
    Shared(const char *text) requires std::is_same_v<T, std::string> : Shared(std::string(text)) {}
    Shared(std::string_view text) requires std::is_same_v<T, std::string>
        : Shared(std::string(text)) {}

    Shared(const Shared &o) noexcept : block_(o.block_) { retain(); }
    Shared(Shared &&o) noexcept : block_(std::exchange(o.block_, nullptr)) {}
    Shared &operator=(const Shared &o) noexcept {
        Shared(o).swap(*this);
        return *this;
    }
    Shared &operator=(Shared &&o) noexcept {
        Shared(std::move(o)).swap(*this);
        return *this;
    }
    ~Shared() { release(); }

    const T &get() const { return block_ ? block_->value : empty_value(); }
    operator const T &() const { return get(); }
    const T *operator->() const { return &get(); }

    bool empty() const { return block_ == nullptr; }
    // Whether this is the only holder of its block.
    bool unique() const { return block_ && block_->refs.load(std::memory_order_acquire) == 1; }
    void clear() { Shared().swap(*this); }
    void swap(Shared &o) noexcept { std::swap(block_, o.block_); }

    // A shared list reads in a range-for as the list.
    auto begin() const requires requires(const T &t) { t.begin(); }
    { return get().begin(); }
    auto end() const requires requires(const T &t) { t.end(); }
    { return get().end(); }

    // The members of std::string callers use most.
    const char *c_str() const requires std::is_same_v<T, std::string> { return get().c_str(); }
    std::size_t size() const requires std::is_same_v<T, std::string> { return get().size(); }

    friend bool operator==(const Shared &a, const Shared &b) {
        return a.block_ == b.block_ || a.get() == b.get();
    }
    friend bool operator==(const Shared &a, const T &b) { return a.get() == b; }
    friend bool operator==(const Shared &a,
                           std::string_view b) requires std::is_same_v<T, std::string> {
        return a.get() == b;
    }
    friend bool operator==(const Shared &a, const char *b) requires std::is_same_v<T, std::string> {
        return a.get() == b;
    }
    friend std::ostream &operator<<(std::ostream &os, const Shared &s) requires
        requires(std::ostream &o, const T &t) {
        o << t;
    }
    { return os << s.get(); }

  private:
    struct Block {
        std::atomic<uint32_t> refs;
        T value;
    };
    static const T &empty_value() {
        static const T empty{};
        return empty;
    }
    void retain() {
        if (block_) block_->refs.fetch_add(1, std::memory_order_relaxed);
    }
    void release() {
        if (block_ && block_->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete block_;
        block_ = nullptr;
    }
    Block *block_ = nullptr;
};

} // namespace drover
