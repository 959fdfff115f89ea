// status.cpp - Status built from a plugin's return code, and the names of the DROVER_* codes.
#include "common/status.hpp"

#include <cstring>

#include <drover/plugin.h>

namespace drover {

Status::Status(int rc, const drover_error &err, std::string_view plugin, std::string_view op)
    : code_(rc) {
    if (rc == DROVER_OK) return;
    // The buffer is the plugin's: read no further than its size, and keep one line.
    std::string reason(err.text, strnlen(err.text, sizeof err.text));
    if (auto nl = reason.find('\n'); nl != std::string::npos) reason.resize(nl);
    if (reason.empty()) reason = "failed (" + status_code_name(rc) + ")";
    text_.reserve(plugin.size() + op.size() + reason.size() + 3);
    if (!plugin.empty()) text_.append(plugin).append(" ");
    text_.append(op).append(": ");
    reason_at_ = text_.size();
    text_.append(reason);
}

std::string status_code_name(int code) {
    switch (code) {
    case DROVER_OK:
        return "OK";
    case DROVER_EINVAL:
        return "EINVAL";
    case DROVER_EBUSY:
        return "EBUSY";
    case DROVER_ENOSPC:
        return "ENOSPC";
    case DROVER_EPERM:
        return "EPERM";
    case DROVER_ENOENT:
        return "ENOENT";
    case DROVER_EIO:
        return "EIO";
    default:
        return "error " + std::to_string(code);
    }
}

} // namespace drover
