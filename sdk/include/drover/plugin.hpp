// drover/plugin.hpp - optional header-only C++ helpers for plugin authors, built into the plugin.
//
// The ABI itself is C (drover/plugin.h); this header only makes writing a C++ plugin shorter and
// safer. Nothing here crosses the boundary: no C++ type leaves the plugin, and the core never
// includes this file. What it offers:
//   - guard(err, fn): the exception barrier every C++ op should wrap its body in, so that no
//     exception unwinds into the core;
//   - set_error(err, ...): writes one NUL-terminated line into a caller-owned drover_error;
//   - to_view / to_str: drover_str <-> std::string_view;
//   - Host: the ctx + host table pair a plugin keeps from init, with log and conf helpers;
//   - DROVER_PLUGIN(...): defines the static descriptor and the exported drover_plugin_entry.
#pragma once

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <drover/plugin.h>

namespace drover::sdk {

// A borrowed drover_str as a string_view (no copy; valid as long as the drover_str's owner says).
inline std::string_view to_view(drover_str s) noexcept {
    return s.ptr ? std::string_view(s.ptr, s.len) : std::string_view();
}

// A string_view as a drover_str. OWNERSHIP: borrows sv's storage; keep it alive for the call.
inline drover_str to_str(std::string_view sv) noexcept {
    return drover_str{sv.data(), sv.size()};
}

// Copies msg into err (truncated to fit, always NUL-terminated). err may be NULL.
inline void set_error(drover_error *err, std::string_view msg) noexcept {
    if (!err) return;
    size_t n = msg.size() < sizeof(err->text) - 1 ? msg.size() : sizeof(err->text) - 1;
    std::memcpy(err->text, msg.data(), n);
    err->text[n] = '\0';
}

// printf-style variant of set_error.
__attribute__((format(printf, 2, 3))) inline void set_errorf(drover_error *err, const char *fmt,
                                                             ...) noexcept {
    if (!err) return;
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(err->text, sizeof(err->text), fmt, ap);
    va_end(ap);
}

// The exception barrier. Runs fn (which returns an int code, or void meaning DROVER_OK) and turns
// any exception it throws into DROVER_EIO with the exception's text in err.
//   return drover::sdk::guard(err, [&] { ...; return DROVER_OK; });
template <class Fn>
int guard(drover_error *err, Fn &&fn) noexcept {
    try {
        if constexpr (std::is_void_v<std::invoke_result_t<Fn>>) {
            std::forward<Fn>(fn)();
            return DROVER_OK;
        } else {
            return static_cast<int>(std::forward<Fn>(fn)());
        }
    } catch (const std::exception &e) {
        set_error(err, e.what());
    } catch (...) {
        set_error(err, "unknown exception");
    }
    return DROVER_EIO;
}

// The barrier for ops that have no error channel (job_priority, job_cpus_on_node): returns
// fallback when fn throws.
template <class T, class Fn>
T guard_or(T fallback, Fn &&fn) noexcept {
    try {
        return std::forward<Fn>(fn)();
    } catch (...) {
        return fallback;
    }
}

// The core's services as the plugin sees them: the ctx and host table from init, kept together.
// OWNERSHIP: both pointers are the core's and valid from init() until fini() returns.
class Host {
  public:
    Host() = default;
    Host(drover_ctx *ctx, const drover_host_api *api) noexcept : ctx_(ctx), api_(api) {}

    // Writes one line to the daemon's log (tagged by the core with "[type/name]").
    void log(int level, std::string_view msg) const noexcept {
        if (api_ && api_->log) api_->log(ctx_, level, to_str(msg));
    }
    void debug(std::string_view msg) const noexcept { log(DROVER_LOG_DEBUG, msg); }
    void info(std::string_view msg) const noexcept { log(DROVER_LOG_INFO, msg); }
    void warn(std::string_view msg) const noexcept { log(DROVER_LOG_WARN, msg); }
    void error(std::string_view msg) const noexcept { log(DROVER_LOG_ERROR, msg); }

    // A slurm.conf value, or nullopt when the key is not set. The view stays valid until fini.
    std::optional<std::string_view> conf(std::string_view key) const noexcept {
        drover_str value{nullptr, 0};
        if (!api_ || !api_->conf_get || api_->conf_get(ctx_, to_str(key), &value) != DROVER_OK)
            return std::nullopt;
        return to_view(value);
    }

    // "ctld", "noded" or "cli" (empty if the host does not say).
    std::string_view role() const noexcept {
        const char *r = api_ && api_->role ? api_->role(ctx_) : nullptr;
        return r ? std::string_view(r) : std::string_view();
    }

  private:
    drover_ctx *ctx_ = nullptr;
    const drover_host_api *api_ = nullptr;
};

} // namespace drover::sdk

// Defines the plugin's static descriptor and its one exported symbol. Use once, at the end of the
// plugin's main source file, at namespace scope:
//   DROVER_PLUGIN("select", "linear", "0.1.0", linear_init, linear_fini, &linear_ops);
// The entry always returns the descriptor: the core compares ABI versions and says what is wrong,
// which is a better message than a NULL.
#define DROVER_PLUGIN(TYPE, NAME, VERSION, INIT, FINI, OPS)                                        \
    extern "C" DROVER_EXPORT const drover_plugin_desc *drover_plugin_entry(uint16_t, uint16_t) {   \
        static const drover_plugin_desc desc = {sizeof(drover_plugin_desc),                        \
                                                DROVER_ABI_MAJOR,                                  \
                                                DROVER_ABI_MINOR,                                  \
                                                (TYPE),                                            \
                                                (NAME),                                            \
                                                (VERSION),                                         \
                                                (INIT),                                            \
                                                (FINI),                                            \
                                                (OPS)};                                            \
        return &desc;                                                                              \
    }
