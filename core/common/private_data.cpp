// private_data.cpp - PrivateData's words.
#include "common/private_data.hpp"

#include <cctype>

namespace drover {

namespace {

struct Word {
    const char *singular;
    bool PrivateData::*flag;
};

constexpr Word kWords[] = {
    {"account", &PrivateData::accounts},
    {"cloud", &PrivateData::cloud},
    {"event", &PrivateData::events},
    {"job", &PrivateData::jobs},
    {"node", &PrivateData::nodes},
    {"partition", &PrivateData::partitions},
    {"reservation", &PrivateData::reservations},
    {"usage", &PrivateData::usage},
    {"user", &PrivateData::users},
};

std::string lower_trimmed(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    std::string out(s);
    for (char &c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// Sets the word's flag; false when it is no PrivateData word.
bool apply(const std::string &word, PrivateData &pd) {
    if (word == "all") {
        for (const Word &w : kWords) pd.*w.flag = true;
        return true;
    }
    for (const Word &w : kWords) {
        std::string_view s = w.singular;
        if (word == s ||
            (word.size() == s.size() + 1 && word.starts_with(s) && word.back() == 's')) {
            pd.*w.flag = true;
            return true;
        }
    }
    return false;
}

} // namespace

PrivateData parse_private_data(std::string_view text, std::vector<std::string> *unknown) {
    PrivateData pd;
    while (!text.empty()) {
        std::size_t comma = text.find(',');
        std::string_view item = text.substr(0, comma);
        text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
        std::string word = lower_trimmed(item);
        if (!word.empty() && !apply(word, pd) && unknown) unknown->emplace_back(item);
    }
    return pd;
}

} // namespace drover
