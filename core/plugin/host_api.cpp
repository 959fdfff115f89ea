// host_api.cpp - the core's services for plugins: logging, slurm.conf look-ups, the daemon's role.
#include "plugin/host_api.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string_view>

#include <spdlog/spdlog.h>

#include "common/config.hpp"

namespace drover::plugin {

namespace {

// Key that answers the directory holding slurm.conf when the core did not put it in Config::raw.
constexpr std::string_view kConfigDirKey = "drover.config_dir";

std::shared_ptr<spdlog::logger> plugin_logger() {
    auto logger = spdlog::get("plugin");
    return logger ? logger : spdlog::default_logger();
}

spdlog::level::level_enum to_spdlog(int level) {
    switch (level) {
    case DROVER_LOG_DEBUG:
        return spdlog::level::debug;
    case DROVER_LOG_INFO:
        return spdlog::level::info;
    case DROVER_LOG_WARN:
        return spdlog::level::warn;
    case DROVER_LOG_ERROR:
        return spdlog::level::err;
    default:
        return level > DROVER_LOG_ERROR ? spdlog::level::err : spdlog::level::debug;
    }
}

std::string_view view_of(drover_str s) {
    return s.ptr ? std::string_view(s.ptr, s.len) : std::string_view();
}

void host_log(drover_ctx *ctx, int level, drover_str msg) {
    try {
        plugin_logger()->log(to_spdlog(level), "[{}] {}", ctx ? ctx->id : "?", view_of(msg));
    } catch (...) {
        // Logging must never unwind into a plugin.
    }
}

int host_conf_get(drover_ctx *ctx, drover_str key, drover_str *value_out) {
    try {
        if (!ctx || !ctx->conf || !value_out) return DROVER_EINVAL;
        std::string lower(view_of(key));
        std::transform(lower.begin(), lower.end(), lower.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        if (auto it = ctx->conf->raw.find(lower); it != ctx->conf->raw.end()) {
            *value_out = drover_str{it->second.data(), it->second.size()};
            return DROVER_OK;
        }
        if (lower == kConfigDirKey && !ctx->config_dir.empty()) {
            *value_out = drover_str{ctx->config_dir.data(), ctx->config_dir.size()};
            return DROVER_OK;
        }
        return DROVER_ENOENT;
    } catch (...) {
        return DROVER_EIO;
    }
}

const char *host_role(drover_ctx *ctx) {
    return ctx ? ctx->role.c_str() : "";
}

} // namespace

const drover_host_api &host_api() {
    static const drover_host_api api = {
        .struct_size = sizeof(drover_host_api),
        .abi_major = DROVER_ABI_MAJOR,
        .abi_minor = DROVER_ABI_MINOR,
        .log = host_log,
        .conf_get = host_conf_get,
        .role = host_role,
    };
    return api;
}

drover_ctx make_host_context(std::string id, const Config &conf, std::string role) {
    drover_ctx ctx;
    ctx.id = std::move(id);
    ctx.conf = &conf;
    ctx.role = std::move(role);
    if (!conf.path.empty()) {
        auto dir = std::filesystem::path(conf.path).parent_path();
        ctx.config_dir = dir.empty() ? std::string(".") : dir.string();
    }
    return ctx;
}

} // namespace drover::plugin
