// PNG plots of a stress report, drawn by gnuplot where it exists: the data
// files and the script stay in the report folder, so the plots can be drawn
// later on another machine (`gnuplot plots.gp` in that folder).
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <string>

#include "stress/report.hpp"

namespace lookback::stress {

namespace {

namespace fs = std::filesystem;

constexpr const char* kScript = "plots.gp";
constexpr const char* kMatrixPng = "mutant_kill_matrix.png";
constexpr const char* kReproPng = "mutant_kill_60s.png";
constexpr const char* kTimePng = "mutant_time_to_kill.png";
constexpr const char* kLitmusPng = "litmus_weak_per_million.png";

// gnuplot string literal (single quotes: only ' needs doubling).
std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s)
    out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

// A whitespace-free token for gnuplot data files.
std::string token(const std::string& s) {
  std::string out;
  for (char c : s)
    out += (c == ' ' || c == '\t' || c == '"') ? '_' : c;
  return out.empty() ? "-" : out;
}

bool gnuplot_available() {
  return std::system("command -v gnuplot >/dev/null 2>&1") == 0;
}

}  // namespace

PlotOutcome write_plots(const std::string& dir, const Report& r, bool render) {
  PlotOutcome out;
  const fs::path d(dir);
  std::ostringstream gp;
  gp << "# Plots of this stress report: `gnuplot plots.gp` in this folder.\n"
        "set terminal pngcairo size 1200,700 font ',10'\n"
        "set termoption noenhanced\n"
        "set datafile missing 'NaN'\n";
  std::vector<std::string> pngs;

  // 1. Failures per second, mutant x knob (log colour scale).
  if (!r.mutants.empty() && !r.knobs.empty()) {
    std::ofstream m(d / "plot_kill_matrix.dat"), l(d / "plot_kill_labels.dat");
    for (std::size_t k = 0; k < r.knobs.size(); ++k)
      m << (k ? " " : "") << token(r.knobs[k].name);
    m << "\n";
    for (std::size_t i = 0; i < r.mutants.size(); ++i) {
      const auto& mu = r.mutants[i];
      for (std::size_t k = 0; k < r.knobs.size(); ++k) {
        const double v = mu.kills_per_second(r.knobs[k].name);
        m << (k ? " " : "") << (v > 0 ? std::to_string(std::log10(v)) : std::string("NaN"));
        std::ostringstream text;
        if (v < 0)
          text << "-";
        else if (v == 0)
          text << "0";
        else
          text << std::setprecision(2) << v;
        l << k << " " << i << " \"" << text.str() << "\"\n";
      }
      m << "\n";
    }
    gp << "\n# failures per second, mutant x knob\n"
          "set output "
       << quoted(kMatrixPng)
       << "\n"
          "set title 'Failures per second of stress, per mutant and knob (log colour; 0: none "
          "seen; -: knob does not apply)'\n"
          "unset key\nset xtics rotate by 35 right\nset ytics\n"
          "set cblabel 'log10(failures / s)'\n"
          "set palette defined (0 '#fee8c8', 1 '#fdbb84', 2 '#e34a33', 3 '#7f0000')\n"
          "set xrange [-0.5:"
       << r.knobs.size() - 0.5 << "]\nset yrange [" << r.mutants.size() - 0.5
       << ":-0.5]\n"
          "set xtics (";
    for (std::size_t k = 0; k < r.knobs.size(); ++k)
      gp << (k ? ", " : "") << quoted(r.knobs[k].name) << " " << k;
    gp << ")\nset ytics (";
    for (std::size_t i = 0; i < r.mutants.size(); ++i)
      gp << (i ? ", " : "") << quoted(r.mutants[i].name) << " " << i;
    gp << ")\nset bmargin 9\nset lmargin 30\n"
          "plot 'plot_kill_matrix.dat' matrix columnheaders with image, \\\n"
          "     'plot_kill_labels.dat' using 1:2:3 with labels font ',8'\n"
          "reset\nset termoption noenhanced\nset datafile missing 'NaN'\n";
    pngs.push_back(kMatrixPng);
  }

  // 2. P(kill in 60 s) with its interval; 3. time to first kill.
  if (!r.mutants.empty()) {
    std::ofstream m(d / "plot_mutants.dat");
    m << "# index name p60 p60_low p60_high time_to_first_kill_s killed label\n";
    for (std::size_t i = 0; i < r.mutants.size(); ++i) {
      const auto& mu = r.mutants[i];
      const KillEstimate e = mu.estimate();
      m << i << " " << token(mu.name) << " " << e.p << " " << e.p_low << " " << e.p_high << " "
        << (mu.time_to_first_kill >= 0 ? std::to_string(mu.time_to_first_kill) : "NaN") << " "
        << (mu.gpu_killed ? 1 : 0) << " \"" << (mu.gpu_killed ? "" : "not killed") << "\"\n";
    }
    gp << "\n# P(kill within 60 s)\n"
          "set output "
       << quoted(kReproPng)
       << "\n"
          "set title 'P(kill within 60 s) per mutant, independent trials (Poisson), 95% "
          "interval'\n"
          "unset key\nset style fill solid 0.6 border -1\nset boxwidth 0.7\n"
          "set yrange [0:1.05]\nset ylabel 'P(kill in 60 s)'\nset grid ytics\n"
          "set xtics rotate by 35 right\nset bmargin 11\n"
          "set xrange [-0.6:"
       << r.mutants.size() - 0.4
       << "]\n"
          "plot 'plot_mutants.dat' using 1:3:xtic(2) with boxes lc rgb '#e34a33', \\\n"
          "     '' using 1:3:4:5 with yerrorbars lc rgb 'black' pt 0, \\\n"
          "     '' using 1:(0.04):8 with labels rotate by 90 left\n"
          "\n# time to first kill\n"
          "set output "
       << quoted(kTimePng)
       << "\n"
          "set title 'Stress time until the first kill, knobs in report order (log; none: not "
          "killed)'\n"
          "set logscale y\nset yrange [*:*]\nset ylabel 'seconds'\n"
          "plot 'plot_mutants.dat' using 1:6:xtic(2) with boxes lc rgb '#3182bd'\n"
          "reset\nset termoption noenhanced\nset datafile missing 'NaN'\n";
    pngs.push_back(kReproPng);
    pngs.push_back(kTimePng);
  }

  // 4. Litmus weak outcomes per million.
  if (!r.litmus.empty()) {
    std::ofstream m(d / "plot_litmus.dat");
    m << "# index shape per_million allowed_by_ptx label\n";
    for (std::size_t i = 0; i < r.litmus.size(); ++i) {
      const auto& l = r.litmus[i];
      const double pm =
          l.instances ? 1e6 * static_cast<double>(l.weak) / static_cast<double>(l.instances) : 0;
      std::ostringstream label;
      label << std::setprecision(3) << pm;
      m << i << " " << token(l.shape) << " " << (pm > 0 ? std::to_string(pm) : "NaN") << " "
        << (l.allowed_by_ptx ? 1 : 0) << " \"" << label.str() << "\"\n";
    }
    gp << "\n# litmus probes\n"
          "set output "
       << quoted(kLitmusPng)
       << "\n"
          "set title 'Litmus probes: weak outcomes per million instances (red: forbidden by "
          "PTX; log)'\n"
          "unset key\nset style fill solid 0.6 border -1\nset boxwidth 0.7\n"
          "set logscale y\nset yrange [0.01:*]\nset ylabel 'per million'\nset grid ytics\n"
          "set xtics rotate by 25 right\nset bmargin 8\n"
          "set xrange [-0.6:"
       << r.litmus.size() - 0.4
       << "]\n"
          "plot 'plot_litmus.dat' using 1:3:($4 > 0 ? 0x3182bd : 0xe34a33):xtic(2) with boxes lc "
          "rgb variable, \\\n"
          "     '' using 1:($3 == $3 ? $3 * 1.6 : 0.02):5 with labels\n";
    pngs.push_back(kLitmusPng);
  }

  {
    std::ofstream script(d / kScript);
    script << gp.str();
    if (!script) {
      out.note = "Plots not written: cannot write " + (d / kScript).string() + ".";
      return out;
    }
  }
  out.pngs = pngs;
  const std::string redo = "`gnuplot " + std::string(kScript) + "` in this folder";
  if (!render) {
    out.note = "Plots not rendered (--no-plots): " + redo + " draws them from the data files.";
    return out;
  }
  if (!gnuplot_available()) {
    out.note = "Plots not rendered here (gnuplot not found): " + redo +
               " draws them from the data files next to this report.";
    return out;
  }
  const std::string cmd = "cd '" + d.string() + "' && gnuplot " + kScript + " > plots.log 2>&1";
  if (std::system(cmd.c_str()) != 0) {
    out.note = "gnuplot failed (see plots.log): " + redo + " to retry.";
    return out;
  }
  for (const auto& png : pngs)
    if (!fs::exists(d / png) || fs::file_size(d / png) == 0) {
      out.note = "gnuplot did not write " + png + " (see plots.log).";
      return out;
    }
  out.rendered = true;
  return out;
}

}  // namespace lookback::stress
