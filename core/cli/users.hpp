// users.hpp - user and group ids to names and back, cached (the passwd database is slow).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace drover::cli {

// The user's name, or the number as text when unknown.
std::string user_name(uint32_t uid);
// The group's name, or the number as text when unknown.
std::string group_name(uint32_t gid);
// A user name or a numeric uid; nullopt when neither.
std::optional<uint32_t> lookup_user(std::string_view name_or_uid);

} // namespace drover::cli
