// test_support.hpp - helpers shared by the plugin tests: temporary directories, configs, bitmaps.
#pragma once

#include <stdlib.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <filesystem>
#include <string>
#include <vector>

#include "common/config.hpp"
#include "plugin/plugin_set.hpp"

namespace drover::plugin::test {

inline const std::string kTestPluginDir = DROVER_TEST_PLUGIN_DIR;      // tests/plugins/lib
inline const std::string kRealPluginDir = DROVER_TEST_REAL_PLUGIN_DIR; // the build's plugins/lib

// A fresh directory under TMPDIR, removed with everything in it at scope exit.
class TempDir {
  public:
    TempDir() {
        std::string tmpl = (std::filesystem::temp_directory_path() / "drover-test-XXXXXX").string();
        if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
        path_ = tmpl;
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir &) = delete;
    TempDir &operator=(const TempDir &) = delete;
    const std::string &path() const { return path_; }
    std::string operator/(const std::string &name) const { return path_ + "/" + name; }

  private:
    std::string path_;
};

// A Config whose PluginDir is the build's plugin directory.
inline Config real_plugin_config() {
    Config conf;
    conf.plugin_dir = kRealPluginDir;
    return conf;
}

// A node bitmap of n bits with the given bits set, and its views.
struct Bits {
    std::vector<uint64_t> words;
    uint32_t nbits;
    explicit Bits(uint32_t n, std::initializer_list<uint32_t> set = {})
        : words((n + 63) / 64, 0), nbits(n) {
        for (uint32_t i : set) words[i / 64] |= uint64_t{1} << (i % 64);
    }
    static Bits all(uint32_t n) {
        Bits b(n);
        for (uint32_t i = 0; i < n; ++i) b.words[i / 64] |= uint64_t{1} << (i % 64);
        return b;
    }
    drover_bitmap_view view() const { return {words.data(), nbits}; }
    drover_bitmap writable() { return {words.data(), nbits}; }
    std::vector<uint32_t> indexes() const {
        std::vector<uint32_t> out;
        for (uint32_t i = 0; i < nbits; ++i)
            if ((words[i / 64] >> (i % 64)) & 1u) out.push_back(i);
        return out;
    }
};

inline drover_str str(const std::string &s) {
    return {s.data(), s.size()};
}

// A proctrack container's pids through cont_pids, sorted; rc gets the op's code.
inline std::vector<int32_t> container_pids(const Bound<drover_proctrack_ops> &pt,
                                           drover_cont_id cont, int *rc, drover_error *err) {
    std::vector<int32_t> out(64);
    uint32_t count = static_cast<uint32_t>(out.size());
    *rc = pt.ops.cont_pids(pt.state, cont, out.data(), &count, err);
    out.resize(*rc == DROVER_OK ? count : 0);
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace drover::plugin::test
