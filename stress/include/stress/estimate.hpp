// How reproducible a kill is: from independent trials (each a fresh run of
// the harness that stops at its first failure or after a cap), the kill rate
// as a Poisson process and the probability of a kill within a horizon
// (60 s), with exact (Garwood) 95% intervals. Plain C++, no GPU.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace lookback::stress {

// One independent trial: killed after `seconds` of stress, or not killed in
// `seconds` (censored).
struct KillTrial {
  bool killed = false;
  double seconds = 0;
  std::uint64_t launches = 0;
};

struct KillEstimate {
  int trials = 0;
  int killed = 0;
  double exposure_seconds = 0;  // stress time over all trials (to each one's kill or end)
  // Kills per second of stress: maximum likelihood (killed / exposure, the
  // censored-exponential MLE) and its exact 95% interval.
  double rate = 0, rate_low = 0, rate_high = 0;
  // P(kill within the horizon) = 1 - exp(-rate * horizon), and its interval.
  double horizon_seconds = 60;
  double p = 0, p_low = 0, p_high = 0;
  // Over the killed trials (-1: none).
  double median_time_to_kill = -1;
  // Empirical: the fraction of trials that killed (each ran at most
  // longest_trial_seconds).
  double longest_trial_seconds = 0;
  double killed_fraction() const { return trials ? static_cast<double>(killed) / trials : 0; }
};

KillEstimate estimate_kills(const std::vector<KillTrial>& trials, double horizon_seconds = 60);

// 1 - exp(-rate * seconds).
double kill_probability(double rate, double seconds);

// Regularized lower incomplete gamma function P(a, x), a > 0, x >= 0.
double gamma_p(double a, double x);
// The x with gamma_p(a, x) = p (0 < p < 1, a > 0).
double gamma_quantile(double p, double a);
// Exact (Garwood) two-sided interval for a Poisson rate: `events` in
// `exposure` (> 0) units, at `confidence`.
std::pair<double, double> poisson_rate_interval(std::uint64_t events, double exposure,
                                                double confidence = 0.95);

}  // namespace lookback::stress
