// licenses.cpp - license lists.
#include "common/licenses.hpp"

#include <charconv>

#include "common/config_parse.hpp"
#include "common/error.hpp"

namespace drover {

std::vector<LicenseCount> parse_licenses(std::string_view text) {
    std::vector<LicenseCount> out;
    for (const std::string &word : detail::split_list(text)) {
        std::string_view item = word;
        std::size_t sep = item.find_first_of(":*");
        LicenseCount lic{std::string(item.substr(0, sep)), 1};
        if (lic.name.empty()) throw ParseError("license '" + std::string(item) + "' has no name");
        if (sep != std::string_view::npos) {
            std::string_view n = item.substr(sep + 1);
            uint64_t v = 0;
            auto [p, ec] = std::from_chars(n.data(), n.data() + n.size(), v);
            if (ec != std::errc() || p != n.data() + n.size() || v == 0 || v > 0x7fffffffu)
                throw ParseError("license '" + std::string(item) + "': bad count");
            lic.count = uint32_t(v);
        }
        bool merged = false;
        for (auto &o : out)
            if (o.name == lic.name) {
                o.count = uint32_t(std::min<uint64_t>(uint64_t(o.count) + lic.count, 0x7fffffffu));
                merged = true;
            }
        if (!merged) out.push_back(std::move(lic));
    }
    return out;
}

std::string licenses_text(const std::vector<LicenseCount> &licenses) {
    std::string out;
    for (const auto &l : licenses)
        out += (out.empty() ? "" : ",") + l.name + ":" + std::to_string(l.count);
    return out;
}

} // namespace drover
