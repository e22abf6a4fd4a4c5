//! Small SVG plots for the notebooks (vocabulary size against tokens per word, Zipf's law),
//! drawn here so the kernel needs no plotting crate.

use super::display::{escape, show_svg};
use std::fmt::Write as _;

/// How an axis maps values: evenly, or by powers of ten (values must then be positive; others
/// are left out).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    Linear,
    Log,
}

/// A line plot with markers, one or more series, shown as `image/svg+xml`.
///
/// ```
/// use bpe_lab::lab::plot::{Plot, Scale};
/// let plot = Plot::new("Zipf", "rank", "count")
///     .scales(Scale::Log, Scale::Log)
///     .series("pairs", vec![(1.0, 100.0), (2.0, 50.0), (3.0, 33.0)]);
/// assert!(plot.svg().starts_with("<svg"));
/// ```
#[derive(Debug, Clone)]
pub struct Plot {
    title: String,
    x_label: String,
    y_label: String,
    x_scale: Scale,
    y_scale: Scale,
    series: Vec<(String, Vec<(f64, f64)>)>,
}

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 400.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 55.0;
const COLOURS: [&str; 4] = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"];

impl Plot {
    pub fn new(title: &str, x_label: &str, y_label: &str) -> Plot {
        Plot {
            title: title.to_owned(),
            x_label: x_label.to_owned(),
            y_label: y_label.to_owned(),
            x_scale: Scale::Linear,
            y_scale: Scale::Linear,
            series: Vec::new(),
        }
    }

    pub fn scales(mut self, x: Scale, y: Scale) -> Plot {
        self.x_scale = x;
        self.y_scale = y;
        self
    }

    pub fn series(mut self, name: &str, points: Vec<(f64, f64)>) -> Plot {
        self.series.push((name.to_owned(), points));
        self
    }

    /// Shows the plot as the cell's output.
    pub fn show(&self) {
        show_svg(&self.svg(), &self.text());
    }

    /// Called by evcxr when a `Plot` is a cell's final expression.
    pub fn evcxr_display(&self) {
        self.show();
    }

    /// A one-line description per series, for text-only readers.
    pub fn text(&self) -> String {
        let mut text = format!("{} ({} against {})", self.title, self.y_label, self.x_label);
        for (name, points) in &self.series {
            let _ = write!(text, "\n  {name}: {} points", points.len());
            if let (Some(first), Some(last)) = (points.first(), points.last()) {
                let _ = write!(
                    text,
                    ", from {} to {}",
                    point_text(*first),
                    point_text(*last)
                );
            }
        }
        text
    }

    /// The SVG document: the frame, the axes with their ticks and labels, then each series
    /// with its legend entry.
    pub fn svg(&self) -> String {
        let visible = self.visible();
        let frame = Frame::around(visible.iter().flat_map(|(_, p)| p.iter().copied()));
        let mut svg = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
             viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-family=\"sans-serif\" font-size=\"12\">\
             <rect width=\"100%\" height=\"100%\" fill=\"white\"/>"
        );
        let _ = write!(
            svg,
            "<text x=\"{}\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">{}</text>",
            WIDTH / 2.0,
            escape(&self.title)
        );
        self.axes(&mut svg, &frame);
        draw_series(&mut svg, &frame, &visible);
        svg.push_str("</svg>");
        svg
    }

    /// Each series' points that its scales can show (finite; positive on a log axis), in
    /// plotted units (log10 on a log axis).
    fn visible(&self) -> Vec<(&str, Vec<(f64, f64)>)> {
        self.series
            .iter()
            .map(|(name, points)| {
                let kept = points
                    .iter()
                    .copied()
                    .filter(|&(x, y)| {
                        x.is_finite()
                            && y.is_finite()
                            && (self.x_scale == Scale::Linear || x > 0.0)
                            && (self.y_scale == Scale::Linear || y > 0.0)
                    })
                    .map(|(x, y)| (transform(x, self.x_scale), transform(y, self.y_scale)))
                    .collect();
                (name.as_str(), kept)
            })
            .collect()
    }

    /// Grid lines and tick labels on both axes, the plot's border and the axis labels.
    fn axes(&self, svg: &mut String, frame: &Frame) {
        let (plot_w, plot_h) = (Frame::WIDTH, Frame::HEIGHT);
        for (value, label) in ticks(frame.x, self.x_scale) {
            let x = frame.px(value);
            let _ = write!(
                svg,
                "<line x1=\"{x:.1}\" y1=\"{TOP}\" x2=\"{x:.1}\" y2=\"{:.1}\" stroke=\"#eee\"/>\
                 <text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{label}</text>",
                TOP + plot_h,
                TOP + plot_h + 16.0
            );
        }
        for (value, label) in ticks(frame.y, self.y_scale) {
            let y = frame.py(value);
            let _ = write!(
                svg,
                "<line x1=\"{LEFT}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#eee\"/>\
                 <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{label}</text>",
                LEFT + plot_w,
                LEFT - 6.0,
                y + 4.0
            );
        }
        let _ = write!(
            svg,
            "<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{plot_w}\" height=\"{plot_h}\" fill=\"none\" stroke=\"#333\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>\
             <text transform=\"translate(16 {:.1}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
            LEFT + plot_w / 2.0,
            HEIGHT - 12.0,
            escape(&self.x_label),
            TOP + plot_h / 2.0,
            escape(&self.y_label)
        );
    }
}

/// The plotted area: the data ranges it shows and how values map to pixels.
struct Frame {
    x: (f64, f64),
    y: (f64, f64),
}

impl Frame {
    const WIDTH: f64 = WIDTH - LEFT - RIGHT;
    const HEIGHT: f64 = HEIGHT - TOP - BOTTOM;

    fn around(points: impl Iterator<Item = (f64, f64)>) -> Frame {
        let (x, y) = ranges(points);
        Frame { x, y }
    }

    fn px(&self, x: f64) -> f64 {
        LEFT + (x - self.x.0) / (self.x.1 - self.x.0) * Frame::WIDTH
    }

    fn py(&self, y: f64) -> f64 {
        TOP + Frame::HEIGHT - (y - self.y.0) / (self.y.1 - self.y.0) * Frame::HEIGHT
    }
}

/// Each series as a line (with markers when it has few points) and its legend entry at the
/// top right, wide enough for the longest name (about 7 px a character).
fn draw_series(svg: &mut String, frame: &Frame, visible: &[(&str, Vec<(f64, f64)>)]) {
    let longest = visible
        .iter()
        .map(|(n, _)| n.chars().count())
        .max()
        .unwrap_or(0);
    let legend_x = LEFT + Frame::WIDTH - 30.0 - 7.0 * longest as f64;
    for (i, (name, points)) in visible.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let path: Vec<String> = points
            .iter()
            .map(|&(x, y)| format!("{:.1},{:.1}", frame.px(x), frame.py(y)))
            .collect();
        let _ = write!(
            svg,
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"1.5\" points=\"{}\"/>",
            path.join(" ")
        );
        if points.len() <= 200 {
            for &(x, y) in points {
                let _ = write!(
                    svg,
                    "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"2.5\" fill=\"{colour}\"/>",
                    frame.px(x),
                    frame.py(y)
                );
            }
        }
        let ly = TOP + 14.0 + 16.0 * i as f64;
        let _ = write!(
            svg,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"12\" height=\"3\" fill=\"{colour}\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\">{}</text>",
            legend_x,
            ly - 4.0,
            legend_x + 18.0,
            ly,
            escape(name)
        );
    }
}

fn transform(v: f64, scale: Scale) -> f64 {
    match scale {
        Scale::Linear => v,
        Scale::Log => v.log10(),
    }
}

fn ranges(points: impl Iterator<Item = (f64, f64)>) -> ((f64, f64), (f64, f64)) {
    let mut x = (f64::INFINITY, f64::NEG_INFINITY);
    let mut y = (f64::INFINITY, f64::NEG_INFINITY);
    for (px, py) in points {
        x = (x.0.min(px), x.1.max(px));
        y = (y.0.min(py), y.1.max(py));
    }
    (widen(x), widen(y))
}

/// A range with room around it; an empty or single-valued one becomes a unit range.
fn widen((lo, hi): (f64, f64)) -> (f64, f64) {
    if !lo.is_finite() || !hi.is_finite() {
        return (0.0, 1.0);
    }
    if hi - lo < 1e-12 {
        return (lo - 0.5, hi + 0.5);
    }
    let pad = (hi - lo) * 0.05;
    (lo - pad, hi + pad)
}

/// About five round tick positions in transformed units, with labels in data units.
fn ticks((lo, hi): (f64, f64), scale: Scale) -> Vec<(f64, String)> {
    match scale {
        Scale::Log => (lo.ceil() as i32..=hi.floor() as i32)
            .map(|p| (p as f64, format_number(10f64.powi(p))))
            .collect(),
        Scale::Linear => {
            let raw = (hi - lo) / 5.0;
            let magnitude = 10f64.powf(raw.log10().floor());
            let step = [1.0, 2.0, 5.0, 10.0]
                .iter()
                .map(|m| m * magnitude)
                .find(|s| *s >= raw)
                .unwrap_or(10.0 * magnitude);
            let mut out = Vec::new();
            let mut v = (lo / step).ceil() * step;
            while v <= hi + step * 1e-9 {
                out.push((v, format_number(v)));
                v += step;
            }
            out
        }
    }
}

/// A point as a reader wants it in the text view: whole numbers without decimals, others
/// to two places (`(98, 6.09)`, not `(98.0, 6.0923769190047645)`).
fn point_text((x, y): (f64, f64)) -> String {
    let number = |v: f64| {
        if v.is_finite() && (v - v.round()).abs() < 1e-9 {
            format!("{}", v.round() as i64)
        } else {
            format!("{v:.2}")
        }
    };
    format!("({}, {})", number(x), number(y))
}

fn format_number(v: f64) -> String {
    if v.abs() >= 1e6 || (v != 0.0 && v.abs() < 1e-3) {
        format!("{v:.0e}")
    } else if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        format!("{v:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_axes_drop_non_positive_points() {
        let plot = Plot::new("t", "x", "y")
            .scales(Scale::Log, Scale::Log)
            .series("s", vec![(0.0, 1.0), (1.0, 10.0), (10.0, 100.0)]);
        assert_eq!(plot.svg().matches("<circle").count(), 2);
    }

    #[test]
    fn linear_ticks_are_round() {
        let labels: Vec<String> = ticks((0.0, 10.0), Scale::Linear)
            .into_iter()
            .map(|t| t.1)
            .collect();
        assert_eq!(labels, ["0", "2", "4", "6", "8", "10"]);
    }

    #[test]
    fn the_text_view_rounds_its_numbers() {
        let plot =
            Plot::new("t", "x", "y").series("s", vec![(1.0, 2639.0), (98.0, 6.0923769190047645)]);
        assert!(
            plot.text()
                .ends_with("s: 2 points, from (1, 2639) to (98, 6.09)"),
            "{}",
            plot.text()
        );
    }

    #[test]
    fn empty_plot_still_draws() {
        assert!(Plot::new("t", "x", "y").svg().ends_with("</svg>"));
    }
}
