#include "stress/estimate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lookback::stress {

double kill_probability(double rate, double seconds) {
  return rate > 0 ? -std::expm1(-rate * seconds) : 0.0;
}

// Series for x < a + 1, continued fraction (modified Lentz) otherwise.
double gamma_p(double a, double x) {
  if (x <= 0) return 0;
  const double log_front = a * std::log(x) - x - std::lgamma(a);
  if (x < a + 1) {
    double term = 1 / a, sum = term;
    for (int n = 1; n < 100000; ++n) {
      term *= x / (a + n);
      sum += term;
      if (std::fabs(term) < std::fabs(sum) * 1e-15) break;
    }
    return std::min(1.0, sum * std::exp(log_front));
  }
  constexpr double kTiny = 1e-300;
  double b = x + 1 - a, c = 1 / kTiny, d = 1 / b, h = d;
  for (int n = 1; n < 100000; ++n) {
    const double an = -n * (n - a);
    b += 2;
    d = an * d + b;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = b + an / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1 / d;
    const double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1) < 1e-15) break;
  }
  return std::max(0.0, 1 - std::exp(log_front) * h);
}

double gamma_quantile(double p, double a) {
  // P(a, x) is increasing in x: bracket, then bisect.
  double lo = 0, hi = std::max(1.0, a);
  while (gamma_p(a, hi) < p)
    hi *= 2;
  for (int i = 0; i < 200 && hi - lo > 1e-12 * std::max(1.0, hi); ++i) {
    const double mid = (lo + hi) / 2;
    (gamma_p(a, mid) < p ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

std::pair<double, double> poisson_rate_interval(std::uint64_t events, double exposure,
                                                double confidence) {
  if (exposure <= 0) return {0, std::numeric_limits<double>::infinity()};
  const double alpha = 1 - confidence;
  const auto k = static_cast<double>(events);
  const double low = events == 0 ? 0 : gamma_quantile(alpha / 2, k);
  const double high = gamma_quantile(1 - alpha / 2, k + 1);
  return {low / exposure, high / exposure};
}

KillEstimate estimate_kills(const std::vector<KillTrial>& trials, double horizon_seconds) {
  KillEstimate e;
  e.horizon_seconds = horizon_seconds;
  std::vector<double> kill_times;
  for (const auto& t : trials) {
    ++e.trials;
    e.exposure_seconds += t.seconds;
    e.longest_trial_seconds = std::max(e.longest_trial_seconds, t.seconds);
    if (t.killed) {
      ++e.killed;
      kill_times.push_back(t.seconds);
    }
  }
  if (e.trials == 0 || e.exposure_seconds <= 0) return e;
  e.rate = e.killed / e.exposure_seconds;
  const auto [low, high] =
      poisson_rate_interval(static_cast<std::uint64_t>(e.killed), e.exposure_seconds);
  e.rate_low = low;
  e.rate_high = high;
  e.p = kill_probability(e.rate, horizon_seconds);
  e.p_low = kill_probability(e.rate_low, horizon_seconds);
  e.p_high = kill_probability(e.rate_high, horizon_seconds);
  if (!kill_times.empty()) {
    std::sort(kill_times.begin(), kill_times.end());
    const std::size_t m = kill_times.size();
    e.median_time_to_kill =
        m % 2 ? kill_times[m / 2] : (kill_times[m / 2 - 1] + kill_times[m / 2]) / 2;
  }
  return e;
}

}  // namespace lookback::stress
