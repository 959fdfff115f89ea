// openmetrics_text.hpp - writes the OpenMetrics text format (what Prometheus scrapes): each
// family's TYPE and HELP lines, then its samples with their labels, and "# EOF" at the end.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace drover::ctld {

using Labels = std::vector<std::pair<std::string_view, std::string>>;

class OpenMetricsText {
  public:
    static constexpr std::string_view kContentType =
        "application/openmetrics-text; version=1.0.0; charset=utf-8";

    // Starts family name; type "gauge" or "counter" (a counter's sample is name_total).
    void family(std::string_view name, std::string_view type, std::string_view help);
    // A sample of the family started last.
    void sample(const Labels &labels, double value);
    void sample(double value) { sample({}, value); }
    // The text, ended by "# EOF".
    std::string finish();

  private:
    std::string out_;
    std::string sample_name_;
};

} // namespace drover::ctld
