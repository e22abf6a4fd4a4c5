//! Grouped bar charts for the notebooks (notebook 07: tokens per word, by tokenizer and word
//! set), drawn as SVG here like [`super::plot`], so the kernel needs no plotting crate.

use super::display::{escape, show_svg};
use std::fmt::Write as _;

/// Bars in groups: one group per label along the bottom, one bar per series in each group,
/// its value written above it.
///
/// ```
/// use bpe_lab::lab::bars::Bars;
/// let chart = Bars::new("Tokens per word", "tokens per word", &["GPT-2", "o200k_base"])
///     .series("African names", vec![3.5, 2.5])
///     .series("English words", vec![1.2, 1.1]);
/// assert_eq!(chart.svg().matches("<rect x=").count(), 4);
/// assert!(chart.text().contains("GPT-2: African names 3.50, English words 1.20"));
/// ```
#[derive(Debug, Clone)]
pub struct Bars {
    title: String,
    y_label: String,
    groups: Vec<String>,
    series: Vec<(String, Vec<f64>)>,
}

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 380.0;
const LEFT: f64 = 60.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 60.0;
const BOTTOM: f64 = 45.0;
const COLOURS: [&str; 4] = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd"];

impl Bars {
    pub fn new(title: &str, y_label: &str, groups: &[&str]) -> Bars {
        Bars {
            title: title.to_owned(),
            y_label: y_label.to_owned(),
            groups: groups.iter().map(|g| g.to_string()).collect(),
            series: Vec::new(),
        }
    }

    /// One bar per group; values beyond the number of groups are ignored, missing ones drawn
    /// as nothing.
    pub fn series(mut self, name: &str, values: Vec<f64>) -> Bars {
        self.series.push((name.to_owned(), values));
        self
    }

    /// Shows the chart as the cell's output.
    pub fn show(&self) {
        show_svg(&self.svg(), &self.text());
    }

    /// Called by evcxr when a `Bars` is a cell's final expression.
    pub fn evcxr_display(&self) {
        self.show();
    }

    /// The values group by group, for text-only readers.
    pub fn text(&self) -> String {
        let mut text = format!("{} ({})", self.title, self.y_label);
        for (g, group) in self.groups.iter().enumerate() {
            let values: Vec<String> = self
                .series
                .iter()
                .filter_map(|(name, values)| values.get(g).map(|v| format!("{name} {v:.2}")))
                .collect();
            let _ = write!(text, "\n  {group}: {}", values.join(", "));
        }
        text
    }

    /// The SVG document.
    pub fn svg(&self) -> String {
        let top = self
            .series
            .iter()
            .flat_map(|(_, v)| v.iter().copied())
            .filter(|v| v.is_finite())
            .fold(0.0f64, f64::max);
        let top = if top > 0.0 { top * 1.15 } else { 1.0 };
        let plot_w = WIDTH - LEFT - RIGHT;
        let plot_h = HEIGHT - TOP - BOTTOM;
        let py = |v: f64| TOP + plot_h - v / top * plot_h;
        let mut svg = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
             viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-family=\"sans-serif\" font-size=\"12\">\
             <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\
             <text x=\"{}\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">{}</text>",
            WIDTH / 2.0,
            escape(&self.title)
        );
        // The legend, in one row under the title.
        for (i, (name, _)) in self.series.iter().enumerate() {
            let x = LEFT + i as f64 * 170.0;
            let _ = write!(
                svg,
                "<rect width=\"12\" height=\"12\" x=\"{x}\" y=\"33\" fill=\"{}\"/>\
                 <text x=\"{}\" y=\"44\">{}</text>",
                COLOURS[i % COLOURS.len()],
                x + 17.0,
                escape(name)
            );
        }
        let _ = write!(
            svg,
            "<line x1=\"{LEFT}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#333\"/>\
             <text transform=\"translate(16 {:.1}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
            TOP + plot_h,
            LEFT + plot_w,
            TOP + plot_h,
            TOP + plot_h / 2.0,
            escape(&self.y_label)
        );
        let group_w = plot_w / self.groups.len().max(1) as f64;
        let bar_w = group_w * 0.7 / self.series.len().max(1) as f64;
        for (g, group) in self.groups.iter().enumerate() {
            let left = LEFT + g as f64 * group_w + group_w * 0.15;
            for (s, (_, values)) in self.series.iter().enumerate() {
                let Some(&value) = values.get(g).filter(|v| v.is_finite() && **v >= 0.0) else {
                    continue;
                };
                let x = left + s as f64 * bar_w;
                let y = py(value);
                let _ = write!(
                    svg,
                    "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{}\"/>\
                     <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"11\">{value:.2}</text>",
                    bar_w - 2.0,
                    TOP + plot_h - y,
                    COLOURS[s % COLOURS.len()],
                    x + bar_w / 2.0 - 1.0,
                    y - 4.0
                );
            }
            let _ = write!(
                svg,
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
                LEFT + g as f64 * group_w + group_w / 2.0,
                TOP + plot_h + 18.0,
                escape(group)
            );
        }
        svg.push_str("</svg>");
        svg
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_are_as_tall_as_their_values() {
        let chart = Bars::new("t", "y", &["a", "b"]).series("s", vec![1.0, 2.0]);
        let svg = chart.svg();
        let heights: Vec<f64> = svg
            .split("<rect x=")
            .skip(1)
            .map(|r| {
                let h = r.split("height=\"").nth(1).unwrap();
                h[..h.find('"').unwrap()].parse().unwrap()
            })
            .collect();
        assert_eq!(heights.len(), 2);
        assert!((heights[1] / heights[0] - 2.0).abs() < 0.01, "{heights:?}");
    }

    #[test]
    fn missing_and_unreadable_values_draw_nothing() {
        let chart = Bars::new("t", "y", &["a", "b", "c"]).series("s", vec![1.0, f64::NAN]);
        assert_eq!(chart.svg().matches("<rect x=").count(), 1);
    }
}
