// loader.hpp - opens one plugin file and finds its entry symbol; no Boost in this header.
//
// Policy (what a valid plugin looks like) lives in plugin_set.cpp; this is only the mechanism:
// dlopen with RTLD_NOW | RTLD_LOCAL through Boost.DLL, and one symbol look-up.
#pragma once

#include <memory>
#include <string>

#include <drover/plugin.h>

namespace drover::plugin {

// One opened shared object. Destroying it unloads the library, so every pointer obtained from it
// (the entry, the descriptor, the ops tables) must be dropped first.
class Library {
  public:
    // Opens path. Throws LoadError("<path>: cannot load: <reason>") when the file is missing or
    // the dynamic linker refuses it (unresolved symbol, wrong architecture), and
    // LoadError("<path>: no drover_plugin_entry symbol: not a Drover plugin") when it lacks the
    // entry symbol.
    explicit Library(const std::string &path);
    ~Library();
    Library(const Library &) = delete;
    Library &operator=(const Library &) = delete;

    // The exported drover_plugin_entry. OWNERSHIP: code inside the library; valid while *this is.
    drover_plugin_entry_fn entry() const { return entry_; }
    const std::string &path() const { return path_; }

  private:
    struct Impl; // the Boost.DLL handle
    std::unique_ptr<Impl> impl_;
    std::string path_;
    drover_plugin_entry_fn entry_ = nullptr;
};

} // namespace drover::plugin
