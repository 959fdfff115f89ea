// licenses.hpp - licenses as slurm.conf's Licenses= and -L/--licenses write them: "name[:count]"
// items joined by ',' ("fluent:30,matlab"; a count left out is 1; '*' may stand for ':').
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace drover {

struct LicenseCount {
    std::string name;
    uint32_t count = 1;
    bool operator==(const LicenseCount &) const = default;
};

// The items in the order first named, a name given twice counting once with the sum. Throws
// ParseError naming the bad item (empty name, count not a number, 0 or over 2^31).
std::vector<LicenseCount> parse_licenses(std::string_view text);

// "fluent:1,matlab:2", as scontrol and squeue show a job's; parse_licenses reads it back.
std::string licenses_text(const std::vector<LicenseCount> &licenses);

} // namespace drover
