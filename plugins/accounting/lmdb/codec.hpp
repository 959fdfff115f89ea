// codec.hpp - little-endian integers and length-prefixed strings for the packed records.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <drover/plugin.h>

namespace drover::acct_lmdb {

class Writer {
  public:
    void u8(uint8_t v) { out_.push_back(static_cast<char>(v)); }
    void u32(uint32_t v) { put(v, 4); }
    void u64(uint64_t v) { put(v, 8); }
    void str(drover_str s) {
        u32(static_cast<uint32_t>(s.len));
        if (s.len) out_.append(s.ptr, s.len);
    }
    std::string take() { return std::move(out_); }

  private:
    void put(uint64_t v, int bytes) {
        for (int i = 0; i < bytes; ++i, v >>= 8) out_.push_back(static_cast<char>(v & 0xff));
    }
    std::string out_;
};

class Reader {
  public:
    explicit Reader(std::string_view in) : in_(in) {}
    bool ok() const { return ok_; }
    uint8_t u8() { return static_cast<uint8_t>(get(1)); }
    uint32_t u32() { return static_cast<uint32_t>(get(4)); }
    uint64_t u64() { return get(8); }
    std::string str() {
        const uint32_t len = u32();
        if (!ok_ || len > in_.size() - pos_) {
            ok_ = false;
            return {};
        }
        std::string s(in_.substr(pos_, len));
        pos_ += len;
        return s;
    }

  private:
    uint64_t get(int bytes) {
        if (!ok_ || in_.size() - pos_ < static_cast<size_t>(bytes)) {
            ok_ = false;
            return 0;
        }
        uint64_t v = 0;
        for (int i = bytes - 1; i >= 0; --i) v = v << 8 | static_cast<uint8_t>(in_[pos_ + i]);
        pos_ += bytes;
        return v;
    }
    std::string_view in_;
    size_t pos_ = 0;
    bool ok_ = true;
};

inline std::string copy(drover_str s) {
    return s.ptr ? std::string(s.ptr, s.len) : std::string();
}

} // namespace drover::acct_lmdb
