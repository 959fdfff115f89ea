// fuzz_yaml.cpp - fuzz target: yaml_from_json on arbitrary text (the --yaml rendering of a
// command's JSON document). It must refuse what is not JSON with ParseError and never crash; and
// yaml_needs_quotes must hold for every string it is given.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "cli/yaml_writer.hpp"
#include "common/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 4096) return 0;
    std::string_view text(reinterpret_cast<const char *>(data), size);
    (void)drover::cli::yaml_needs_quotes(text);
    try {
        std::string yaml = drover::cli::yaml_from_json(text);
        // A document is framed as libyaml writes it.
        if (yaml.rfind("%YAML 1.1\n---", 0) != 0) std::abort();
    } catch (const drover::ParseError &) {}
    return 0;
}
