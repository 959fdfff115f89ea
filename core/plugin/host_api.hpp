// host_api.hpp - the drover_host_api table handed to each plugin, and the per-plugin context.
#pragma once

#include <string>

#include <drover/plugin.h>

namespace drover {
struct Config;
}

// The opaque drover_ctx of drover/plugin.h, defined core-side: one per loaded plugin.
// OWNERSHIP: owned by the PluginSet's record of that plugin; lives from before init() until after
// fini() returns. conf is borrowed from the PluginSet's owner and must outlive it.
struct drover_ctx {
    std::string id; // "select/linear": the log tag
    const drover::Config *conf = nullptr;
    std::string role;       // "ctld", "noded" or "cli"
    std::string config_dir; // directory of conf->path; answers conf_get("drover.config_dir")
};

namespace drover::plugin {

// The one host table (static storage, never freed). Its functions never throw.
const drover_host_api &host_api();

// A context for plugin `id` loaded by a daemon in `role`.
drover_ctx make_host_context(std::string id, const Config &conf, std::string role);

} // namespace drover::plugin
