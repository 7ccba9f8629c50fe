//! Pictures of a simulation: a terminal chart that fits 80 columns and a standalone SVG,
//! both with scans across, games up and one series per strategy, like the statement's
//! efficiency chart.

use crate::tools::simulate::StrategyStats;
use std::fmt::Write as _;

/// Plot columns of the terminal chart (80 minus the y labels).
const PLOT_WIDTH: usize = 68;
/// Plot rows of the terminal chart.
const PLOT_HEIGHT: usize = 16;
/// Series colours of the SVG chart.
const COLOURS: [&str; 8] = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"];

/// One mark character per series: the first letter of its name not taken by an earlier
/// series, else a digit.
/// Pre: none. Post: distinct characters, one per name.
pub fn symbols(names: &[&str]) -> Vec<char> {
    let mut used: Vec<char> = Vec::new();
    for (k, name) in names.iter().enumerate() {
        let pick = name
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .find(|c| !used.contains(c))
            .unwrap_or_else(|| char::from_digit((k % 10) as u32, 10).unwrap_or('#'));
        used.push(pick);
    }
    used
}

/// The range of scan counts that any series reached.
fn scan_range(stats: &[StrategyStats]) -> (usize, usize) {
    let lo = stats.iter().filter(|s| s.games() > 0).map(StrategyStats::min).min().unwrap_or(0);
    let hi = stats.iter().filter(|s| s.games() > 0).map(StrategyStats::max).max().unwrap_or(0);
    (lo, hi.max(lo))
}

/// The terminal chart: at most 80 columns, games up, scans across (grouped into bins when
/// the range is wider than the plot), one mark per series, `*` where series meet.
/// Pre: none. Post: lines of at most 80 characters, ending with a legend.
pub fn terminal(stats: &[StrategyStats]) -> String {
    let (lo, hi) = scan_range(stats);
    let width = (hi - lo) / PLOT_WIDTH + 1; // scans per column
    let columns = (hi - lo) / width + 1;
    let names: Vec<&str> = stats.iter().map(|s| s.name.as_str()).collect();
    let marks = symbols(&names);
    let binned: Vec<Vec<u64>> = stats
        .iter()
        .map(|s| (0..columns).map(|c| (lo + c * width..lo + (c + 1) * width).map(|v| s.games_at(v)).sum()).collect())
        .collect();
    let top = binned.iter().flatten().copied().max().unwrap_or(0).max(1);
    let mut grid = vec![vec![' '; columns]; PLOT_HEIGHT];
    for (series, bins) in binned.iter().enumerate() {
        for (c, &g) in bins.iter().enumerate() {
            if g == 0 {
                continue;
            }
            let level = ((g as f64 / top as f64) * PLOT_HEIGHT as f64).round().max(1.0) as usize;
            let row = PLOT_HEIGHT - level.min(PLOT_HEIGHT);
            if let Some(cell) = grid.get_mut(row).and_then(|r| r.get_mut(c)) {
                *cell = if *cell == ' ' { marks.get(series).copied().unwrap_or('#') } else { '*' };
            }
        }
    }
    let mut out = String::new();
    let unit =
        if width == 1 { "one column per scan count".to_string() } else { format!("{width} scan counts per column") };
    let _ = writeln!(out, "games (up) by number of scans (across), {unit}");
    for (r, line) in grid.iter().enumerate() {
        let label = if r == 0 {
            top.to_string()
        } else if r == PLOT_HEIGHT / 2 {
            (top / 2).to_string()
        } else {
            String::new()
        };
        let _ = writeln!(out, "{label:>10} |{}", line.iter().collect::<String>().trim_end());
    }
    let _ = writeln!(out, "{:>10} +{}", 0, "-".repeat(columns));
    // Tick labels every 10 columns, each label starting under its column.
    let mut ticks = " ".repeat(12);
    for c in (0..columns).step_by(10) {
        let label = (lo + c * width).to_string();
        let at = 12 + c;
        if ticks.len() <= at && at + label.len() <= 80 {
            ticks.push_str(&" ".repeat(at - ticks.len()));
            ticks.push_str(&label);
        }
    }
    let _ = writeln!(out, "{ticks}");
    let legend: Vec<String> =
        stats.iter().zip(&marks).map(|(s, m)| format!("{m} = {} (mean {:.1})", s.name, s.mean())).collect();
    let mut line = String::from("  ");
    for item in legend {
        if line.len() + item.len() + 3 > 80 {
            let _ = writeln!(out, "{}", line.trim_end());
            line = String::from("  ");
        }
        line.push_str(&item);
        line.push_str("   ");
    }
    let _ = writeln!(out, "{}", line.trim_end());
    out
}

/// A "nice" tick step (1, 2 or 5 times a power of ten) giving about `target` ticks.
/// Pre: `span > 0`. Post: a positive step.
pub fn nice_step(span: f64, target: f64) -> f64 {
    let raw = (span / target).max(f64::MIN_POSITIVE);
    let magnitude = 10f64.powf(raw.log10().floor());
    let fraction = raw / magnitude;
    let nice = if fraction <= 1.0 {
        1.0
    } else if fraction <= 2.0 {
        2.0
    } else if fraction <= 5.0 {
        5.0
    } else {
        10.0
    };
    nice * magnitude
}

/// Escapes text for SVG.
fn xml(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The SVG chart's text size, in its own units. The report prints a chart at most
/// 56 mm tall (report/report.css); a chart is [`SVG_HEIGHT`] units plus a legend row
/// per three strategies, so its text prints at 8.1 pt with 6 strategies and 7.1 pt
/// with all 10 (22 / 489 x 56 mm = 2.52 mm).
pub const SVG_FONT: f64 = 22.0;

/// The SVG chart's height without its legend, in its own units.
pub const SVG_HEIGHT: f64 = 370.0;

/// A standalone SVG line chart: scans across, games up, axes with ticks and labels, a
/// legend under the plot (a row per three strategies), and one polyline per strategy.
/// Every text is [`SVG_FONT`] units high on a chart [`SVG_HEIGHT`] units tall plus its
/// legend rows, so that it stays legible printed small.
/// Pre: none. Post: a complete SVG document.
pub fn svg(stats: &[StrategyStats], title: &str) -> String {
    let font = SVG_FONT;
    let line = font * 1.35;
    // The legend: three entries a row, each as wide as the longest.
    let labels: Vec<String> = stats.iter().map(|s| format!("{} (mean {:.1})", s.name, s.mean())).collect();
    let per_row = 3usize;
    let rows = stats.len().div_ceil(per_row).max(1) as f64;
    let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0) as f64;
    let entry = 44.0 + longest * font * 0.64;
    let w = (80.0 + 3.0 * entry).max(760.0);
    let h = SVG_HEIGHT + rows * line;
    let (left, right, top_m) = (110.0, 30.0, 48.0);
    let bottom = 2.6 * line + rows * line;
    let (pw, ph) = (w - left - right, h - top_m - bottom);
    let (lo, hi) = scan_range(stats);
    let (lo, hi) = (lo as f64, (hi as f64).max(lo as f64 + 1.0));
    let ymax = stats.iter().flat_map(|s| s.histogram.values().copied()).max().unwrap_or(0).max(1) as f64;
    let ystep = nice_step(ymax, 5.0);
    let ytop = (ymax / ystep).ceil() * ystep;
    let xstep = nice_step(hi - lo, 8.0).max(1.0);
    let x = |v: f64| left + (v - lo) / (hi - lo) * pw;
    let y = |v: f64| top_m + ph - v / ytop * ph;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}" font-family="sans-serif" font-size="{font}">"#
    );
    let _ = writeln!(out, r#"<rect width="{w:.0}" height="{h:.0}" fill="white"/>"#);
    let _ =
        writeln!(out, r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#, w / 2.0, font * 1.4, xml(title));
    // Grid lines and ticks.
    let mut v = 0.0;
    while v <= ytop + ystep / 2.0 {
        let yy = y(v);
        let _ =
            writeln!(out, r##"<line x1="{left}" y1="{yy:.1}" x2="{:.1}" y2="{yy:.1}" stroke="#e0e0e0"/>"##, left + pw);
        let _ = writeln!(
            out,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"#,
            left - 8.0,
            yy + font * 0.35,
            v as u64
        );
        v += ystep;
    }
    let mut t = (lo / xstep).ceil() * xstep;
    while t <= hi {
        let xx = x(t);
        let _ = writeln!(
            out,
            r##"<line x1="{xx:.1}" y1="{:.1}" x2="{xx:.1}" y2="{:.1}" stroke="#333"/>"##,
            top_m + ph,
            top_m + ph + 6.0
        );
        let _ = writeln!(
            out,
            r#"<text x="{xx:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            top_m + ph + 6.0 + font,
            t as u64
        );
        t += xstep;
    }
    let _ = writeln!(
        out,
        r##"<polyline points="{left},{top_m} {left},{:.1} {:.1},{:.1}" fill="none" stroke="#333"/>"##,
        top_m + ph,
        left + pw,
        top_m + ph
    );
    let _ = writeln!(
        out,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">scans</text>"#,
        left + pw / 2.0,
        top_m + ph + 6.0 + font + line
    );
    let _ = writeln!(
        out,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle" transform="rotate(-90 {:.1} {:.1})">games</text>"#,
        font,
        top_m + ph / 2.0,
        font,
        top_m + ph / 2.0
    );
    let legend_top = top_m + ph + 6.0 + font + line + line * 0.9;
    for (k, s) in stats.iter().enumerate() {
        let colour = COLOURS[k % COLOURS.len()];
        let points: Vec<String> =
            (s.min()..=s.max()).map(|v| format!("{:.1},{:.1}", x(v as f64), y(s.games_at(v) as f64))).collect();
        let _ = writeln!(
            out,
            r#"<polyline points="{}" fill="none" stroke="{colour}" stroke-width="1.8"/>"#,
            points.join(" ")
        );
        let ly = legend_top + line * (k / per_row) as f64;
        let lx = (w - 3.0 * entry) / 2.0 + entry * (k % per_row) as f64;
        let _ = writeln!(
            out,
            r#"<line x1="{lx:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{colour}" stroke-width="4"/>"#,
            ly - font * 0.35,
            lx + 26.0,
            ly - font * 0.35
        );
        let label = labels.get(k).map_or(String::new(), |l| xml(l));
        let _ = writeln!(out, r#"<text x="{:.1}" y="{ly:.1}">{label}</text>"#, lx + 34.0);
    }
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn stats(name: &str, hist: Vec<u64>) -> StrategyStats {
        StrategyStats {
            name: name.into(),
            histogram: crate::tools::simulate::dense_histogram(&hist),
            vs_first: None,
            vs_earlier: Vec::new(),
            busy: Duration::ZERO,
            forfeits: 0,
            first_forfeit: None,
        }
    }

    #[test]
    fn symbols_are_distinct() {
        assert_eq!(
            symbols(&["random", "linear", "smart", "prob", "parity", "bayes"]),
            vec!['r', 'l', 's', 'p', 'a', 'b']
        );
        assert_eq!(symbols(&["a", "a", "a"]), vec!['a', '1', '2']);
    }

    #[test]
    fn terminal_chart_fits_80_columns() {
        let mut wide = vec![0u64; 10_001];
        for (i, v) in wide.iter_mut().enumerate().skip(21) {
            *v = (i % 97) as u64;
        }
        let s = [stats("random", wide.clone()), stats("prob", wide)];
        let chart = terminal(&s);
        assert!(chart.lines().all(|l| l.chars().count() <= 80), "{chart}");
        assert!(chart.contains("r = random"));
        let narrow = [stats("linear", vec![0, 0, 5, 10, 5])];
        let chart = terminal(&narrow);
        assert!(chart.contains('l') && chart.lines().all(|l| l.chars().count() <= 80));
    }

    #[test]
    fn nice_steps() {
        assert_eq!(nice_step(100.0, 10.0), 10.0);
        assert_eq!(nice_step(37.0, 10.0), 5.0);
        assert_eq!(nice_step(15_000.0, 6.0), 5000.0);
    }

    #[test]
    fn svg_has_a_polyline_per_series_and_a_legend() {
        let s = [stats("a<b", vec![0, 1, 3, 1]), stats("prob", vec![0, 0, 2, 2])];
        let doc = svg(&s, "test");
        assert!(doc.starts_with("<svg") && doc.ends_with("</svg>\n"));
        assert_eq!(doc.matches("stroke-width=\"1.8\"").count(), 2);
        assert!(doc.contains("a&lt;b (mean 2.0)"));
        // Every text SVG_FONT units high, none smaller; printed at most 56 mm tall (as
        // report.css prints it), at least 7 pt even with all ten strategies.
        let ten: Vec<StrategyStats> = (0..10).map(|k| stats(&format!("density-rand{k}"), vec![0, 1, 3, 1])).collect();
        for doc in [doc, svg(&ten, "test")] {
            assert!(doc.contains(&format!("font-size=\"{SVG_FONT}\"")) && doc.matches("font-size=").count() == 1);
            let height: f64 =
                doc.split("height=\"").nth(1).and_then(|t| t.split('"').next()).and_then(|t| t.parse().ok()).unwrap();
            let points = SVG_FONT * 56.0 / height / 0.3528;
            assert!(points >= 7.0, "{points} pt");
        }
    }
}
