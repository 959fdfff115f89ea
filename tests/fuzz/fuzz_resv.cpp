// fuzz_resv.cpp - fuzz target: scontrol's reservation keys as the controller reads them (the
// input split into Key=Value words, a key ending in + or - as scontrol sends += and -=), and the
// flag and name-list parsers alone: nothing crashes; what is not refused formats back.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/error.hpp"
#include "common/resv_flags.hpp"
#include "ctld/resv/reservation.hpp"
#include "ctld/resv/resv_spec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    std::vector<std::pair<std::string, std::string>> fields;
    std::size_t at = 0;
    while (at < text.size() && fields.size() < 32) {
        std::size_t end = text.find(' ', at);
        std::string_view word = text.substr(at, end == std::string_view::npos ? end : end - at);
        std::size_t eq = word.find('=');
        if (eq != std::string_view::npos)
            fields.emplace_back(std::string(word.substr(0, eq)), std::string(word.substr(eq + 1)));
        if (end == std::string_view::npos) break;
        at = end + 1;
    }
    try {
        (void)drover::ctld::parse_resv_spec(fields, 1'800'000'000);
    } catch (const drover::ParseError &) {}
    try {
        (void)drover::format_resv_flags(drover::parse_resv_flags(text));
    } catch (const drover::ParseError &) {}
    try {
        (void)drover::ctld::NameList::parse(text).text();
    } catch (const drover::ParseError &) {}
    return 0;
}
