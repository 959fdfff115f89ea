// loader.cpp - the only user of Boost.DLL: opens a plugin file and looks up drover_plugin_entry.
#include "plugin/loader.hpp"

#include <dlfcn.h>

#include <string_view>
#include <system_error>

#include <boost/dll/shared_library.hpp>

#include "plugin/plugin_set.hpp"

namespace drover::plugin {

namespace dll = boost::dll;

struct Library::Impl {
    dll::shared_library lib;
};

namespace {

constexpr const char *kEntrySymbol = "drover_plugin_entry";

// Boost.DLL reports a failed dlopen as "bad file descriptor"; the dynamic linker's own message
// ("undefined symbol: foo", "wrong ELF class") is what an admin needs, so prefer dlerror().
// It usually repeats the path first; drop that, since our line already starts with it.
std::string load_failure(const std::string &path, const dll::fs::error_code &ec) {
    const char *why = ::dlerror();
    std::string text = why ? why : ec.message();
    std::string_view prefix = path;
    if (text.size() > prefix.size() + 2 && text.compare(0, prefix.size(), prefix) == 0 &&
        text.compare(prefix.size(), 2, ": ") == 0)
        text.erase(0, prefix.size() + 2);
    return text;
}

} // namespace

Library::Library(const std::string &path) : impl_(std::make_unique<Impl>()), path_(path) {
    dll::fs::error_code ec;
    ::dlerror(); // clear any stale message
    impl_->lib.load(path, ec, dll::load_mode::rtld_now | dll::load_mode::rtld_local);
    if (ec || !impl_->lib.is_loaded())
        throw LoadError(path + ": cannot load: " + load_failure(path, ec));
    if (!impl_->lib.has(kEntrySymbol))
        throw LoadError(path + ": no " + kEntrySymbol + " symbol: not a Drover plugin");
    using EntrySig = const drover_plugin_desc *(uint16_t, uint16_t);
    entry_ = &impl_->lib.get<EntrySig>(kEntrySymbol);
}

Library::~Library() = default;

} // namespace drover::plugin
