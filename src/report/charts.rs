//! SVG charts for reports, drawn with `plotters`' SVG backend into a `String`.
//!
//! Every chart is one `<svg>` element carrying an `id` (`chart-…`), `role="img"`, an
//! `aria-label` and a `<title>`, so a page check (and a screen reader) can find it. Text is
//! laid out with plotters' naive font metrics (the browser renders the real font), so
//! labels are kept short. A drawing error (which plotters only raises for a broken backend)
//! gives an empty string and the report still renders the tables.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::stats::Histogram;

/// A colour per series, from the Tableau 10 palette (colour-blind friendlier than the
/// defaults).
pub const PALETTE: [RGBColor; 8] = [
    RGBColor(78, 121, 167),
    RGBColor(242, 142, 43),
    RGBColor(89, 161, 79),
    RGBColor(225, 87, 89),
    RGBColor(118, 183, 178),
    RGBColor(237, 201, 72),
    RGBColor(176, 122, 161),
    RGBColor(156, 117, 95),
];

fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// Escapes text for XML (SVG and HTML).
pub fn escape(s: &str) -> String {
    crate::format::escape_html(s)
}

/// Adds the id, the role, the label and a `<title>` to plotters' `<svg>` element.
fn tag(svg: String, id: &str, title: &str) -> String {
    let Some(open) = svg.find("<svg") else {
        return svg;
    };
    let Some(end) = svg[open..].find('>').map(|e| open + e) else {
        return svg;
    };
    format!(
        "{}<svg id=\"{}\" class=\"chart\" role=\"img\" aria-label=\"{}\"{}><title>{}</title>{}",
        &svg[..open],
        escape(id),
        escape(title),
        &svg[open + 4..end],
        escape(title),
        &svg[end + 1..]
    )
}

/// One value with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bar {
    /// The value.
    pub value: f64,
    /// The interval, if any.
    pub interval: Option<(f64, f64)>,
}

/// A series of a bar chart: a name (legend) and one bar per category (`None`: no bar).
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// The legend entry.
    pub name: String,
    /// One bar per category.
    pub bars: Vec<Option<Bar>>,
}

/// Options of [`bars`].
#[derive(Clone, Debug, Default)]
pub struct BarOptions {
    /// The y axis label.
    pub y_label: String,
    /// The x axis label.
    pub x_label: String,
    /// A dashed reference line (e.g. the fair win rate), with its legend text.
    pub reference: Option<(f64, String)>,
    /// The y range; by default from 0 (or the lowest value) to the highest end plus 10%.
    pub y_range: Option<(f64, f64)>,
    /// Format y values as percentages.
    pub percent: bool,
    /// A small chart (for a row of small multiples), 300 × 240 pixels.
    pub small: bool,
}

/// The ratings chart (`chart-ratings`): one bar per agent at its Elo-scale rating with its
/// 95% interval ([`crate::stats::ratings::Rating`]), `names` in the ratings' order.
pub fn rating_bars(
    title: &str,
    names: &[String],
    ratings: &[crate::stats::ratings::Rating],
) -> String {
    bars(
        "chart-ratings",
        title,
        names,
        &[Series {
            name: "rating".into(),
            bars: ratings
                .iter()
                .map(|x| {
                    Some(Bar {
                        value: x.elo,
                        interval: Some((x.ci_low, x.ci_high)),
                    })
                })
                .collect(),
        }],
        &BarOptions {
            y_label: "Elo".into(),
            ..Default::default()
        },
    )
}

/// Grouped bars with 95% interval whiskers: one group per category, one bar per series.
pub fn bars(
    id: &str,
    title: &str,
    categories: &[String],
    series: &[Series],
    o: &BarOptions,
) -> String {
    // A chart of one bar compares nothing: the table beside it says the same.
    let drawn = series.iter().flat_map(|s| s.bars.iter().flatten()).count();
    if drawn < 2 {
        return String::new();
    }
    let k = categories.len().max(1);
    let (width, height) = if o.small {
        (300, 240)
    } else {
        (
            (160 + k * (30 + 26 * series.len().max(1))).clamp(520, 1100) as u32,
            360,
        )
    };
    let legend = series.len() > 1 || o.reference.is_some();
    let mut buf = String::new();
    let ok = (|| -> Result<(), Box<dyn std::error::Error + '_>> {
        let root = SVGBackend::with_string(&mut buf, (width, height)).into_drawing_area();
        root.fill(&WHITE)?;
        let values = series.iter().flat_map(|s| s.bars.iter().flatten());
        let (mut lo, mut hi) = (0.0f64, f64::MIN);
        for b in values {
            let (l, h) = b.interval.unwrap_or((b.value, b.value));
            lo = lo.min(l).min(b.value);
            hi = hi.max(h).max(b.value);
        }
        if let Some((r, _)) = &o.reference {
            hi = hi.max(*r);
            lo = lo.min(*r);
        }
        if hi <= lo {
            hi = lo + 1.0;
        }
        let span = hi - lo;
        if lo < 0.0 {
            lo -= 0.08 * span;
        }
        let entries = series.len() + usize::from(o.reference.is_some());
        let head = if legend {
            0.15 + 0.1 * entries.min(5) as f64
        } else {
            0.1
        };
        let (mut y0, mut y1) = o.y_range.unwrap_or((lo, hi + head * span));
        if o.percent {
            // A rate lies in 0–100%: the axis never runs past either end.
            (y0, y1) = (y0.max(0.0), y1.min(1.0));
        }
        // Category labels wider than their slot are wrapped onto up to 4 lines and drawn
        // below the axis by hand (plotters draws one line per tick and would overlap them).
        let slot_px = (f64::from(width) - 90.0) / k as f64;
        let wrapped = wrap_labels(categories, slot_px);
        let lines = wrapped
            .as_ref()
            .map_or(1, |w| w.iter().map(Vec::len).max().unwrap_or(1));
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 17))
            .margin(10)
            .x_label_area_size(if lines > 1 {
                22 + 15 * lines as u32
            } else {
                50
            })
            .y_label_area_size(60)
            .build_cartesian_2d(-0.5f64..(k as f64 - 0.5), y0..y1)?;
        let cats = if wrapped.is_some() {
            Vec::new()
        } else {
            categories.to_vec()
        };
        let xf = move |x: &f64| {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < cats.len() {
                cats[i as usize].clone()
            } else {
                String::new()
            }
        };
        let pct = o.percent;
        let yf = move |y: &f64| {
            if pct {
                format!("{:.0}%", y * 100.0)
            } else {
                let t = format!("{y:.3}")
                    .trim_end_matches('0')
                    .trim_end_matches('.')
                    .to_string();
                // A tick a rounding below 0 (-0.0000001) reads as 0, not -0.
                if t == "-0" { "0".to_string() } else { t }
            }
        };
        chart
            .configure_mesh()
            .label_style(("sans-serif", 12))
            .axis_desc_style(("sans-serif", 13))
            .disable_x_mesh()
            .light_line_style(TRANSPARENT)
            .x_labels(k + 1)
            .x_label_formatter(&xf)
            .y_label_formatter(&yf)
            .x_desc(o.x_label.as_str())
            .y_desc(o.y_label.as_str())
            .draw()?;
        if let Some(w) = &wrapped {
            let style = TextStyle::from(("sans-serif", 12).into_font())
                .pos(Pos::new(HPos::Center, VPos::Top));
            for (i, label) in w.iter().enumerate() {
                let (x, y) = chart.backend_coord(&(i as f64, y0));
                for (j, line) in label.iter().enumerate() {
                    root.draw(&Text::new(
                        line.clone(),
                        (x, y + 8 + 15 * j as i32),
                        style.clone(),
                    ))?;
                }
            }
        }
        let m = series.len().max(1) as f64;
        let slot = 0.8 / m;
        for (si, s) in series.iter().enumerate() {
            let c = colour(si);
            let base = |i: usize| i as f64 - 0.4 + slot * si as f64;
            let rects: Vec<_> = s
                .bars
                .iter()
                .enumerate()
                .filter_map(|(i, b)| b.map(|b| (i, b)))
                .map(|(i, b)| {
                    Rectangle::new(
                        [
                            (base(i) + 0.05 * slot, 0f64.max(y0)),
                            (base(i) + 0.95 * slot, b.value),
                        ],
                        c.mix(0.85).filled(),
                    )
                })
                .collect();
            let anno = chart.draw_series(rects)?;
            if series.len() > 1 {
                anno.label(s.name.as_str()).legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 10, y + 5)], c.filled())
                });
            }
            for (i, b) in s.bars.iter().enumerate() {
                if let Some(Bar {
                    interval: Some((l, h)),
                    ..
                }) = b
                {
                    let x = base(i) + 0.5 * slot;
                    let w = 0.15 * slot;
                    let st = ShapeStyle::from(&BLACK).stroke_width(1);
                    chart.draw_series([
                        PathElement::new(vec![(x, *l), (x, *h)], st),
                        PathElement::new(vec![(x - w, *l), (x + w, *l)], st),
                        PathElement::new(vec![(x - w, *h), (x + w, *h)], st),
                    ])?;
                }
            }
        }
        if let Some((r, label)) = &o.reference {
            let r = *r;
            chart
                .draw_series(DashedLineSeries::new(
                    vec![(-0.5, r), (k as f64 - 0.5, r)],
                    6,
                    4,
                    ShapeStyle::from(&RGBColor(90, 90, 90)).stroke_width(1),
                ))?
                .label(label.as_str())
                .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 12, y)], RGBColor(90, 90, 90)));
        }
        if legend {
            chart
                .configure_series_labels()
                .background_style(WHITE.mix(0.85))
                .border_style(RGBColor(200, 200, 200))
                .position(SeriesLabelPosition::UpperRight)
                .draw()?;
        }
        root.present()?;
        Ok(())
    })()
    .is_ok();
    if ok {
        tag(buf, id, title)
    } else {
        String::new()
    }
}

/// Average advance of a 12-pixel sans-serif character, in pixels (a little above the
/// typical 6–6.5 so that the browser's real font fits).
const CHAR_PX: f64 = 7.0;

/// Wraps category labels that do not fit a slot of `slot_px` pixels: `None` when every
/// label fits on one line, otherwise each label as lines (at most 4, the last cut with `…`),
/// broken only after spaces, `:`, `,`, `=`, `/`, `-`, `#` and `_` (word boundaries): a word
/// longer than the slot keeps a line of its own.
fn wrap_labels(labels: &[String], slot_px: f64) -> Option<Vec<Vec<String>>> {
    let width = ((slot_px - 6.0) / CHAR_PX).floor().max(4.0) as usize;
    if labels.iter().all(|l| l.chars().count() <= width) {
        return None;
    }
    const MAX_LINES: usize = 4;
    Some(
        labels
            .iter()
            .map(|l| {
                // Break points: after a separator.
                let mut tokens: Vec<String> = Vec::new();
                let mut cur = String::new();
                for ch in l.chars() {
                    cur.push(ch);
                    if matches!(ch, ' ' | ':' | ',' | '=' | '/' | '-' | '#' | '_') {
                        tokens.push(std::mem::take(&mut cur));
                    }
                }
                if !cur.is_empty() {
                    tokens.push(cur);
                }
                let mut lines: Vec<String> = vec![String::new()];
                for t in tokens {
                    let mut t = t.as_str();
                    loop {
                        let last = lines.last_mut().expect("one line at least");
                        let room = width - last.chars().count();
                        let len = t.chars().count();
                        if len <= room {
                            last.push_str(t);
                            break;
                        }
                        if last.trim().is_empty() {
                            // A word longer than the slot stays whole on its own line
                            // (it may overhang the slot): labels never break mid-word.
                            last.push_str(t);
                            t = "";
                        }
                        lines.push(String::new());
                        if t.is_empty() {
                            break;
                        }
                    }
                }
                let mut lines: Vec<String> = lines
                    .into_iter()
                    .map(|x| x.trim().to_string())
                    .filter(|x| !x.is_empty())
                    .collect();
                if lines.len() > MAX_LINES {
                    lines.truncate(MAX_LINES);
                    let last = &mut lines[MAX_LINES - 1];
                    let keep: String = last.chars().take(width.saturating_sub(1)).collect();
                    *last = format!("{keep}…");
                }
                lines
            })
            .collect(),
    )
}

/// Histograms of several groups on shared bins, as shares of each group's values (so
/// groups of different sizes compare), drawn side by side within each bin.
///
/// All histograms must have the same `low` and `width`; bins missing from a shorter one
/// count 0.
pub fn histograms(id: &str, title: &str, x_label: &str, groups: &[(String, Histogram)]) -> String {
    let Some(first) = groups.first().map(|g| &g.1) else {
        return String::new();
    };
    let (low, width) = (first.low, first.width);
    let bins = groups.iter().map(|g| g.1.counts.len()).max().unwrap_or(0);
    let mut buf = String::new();
    let ok = (|| -> Result<(), Box<dyn std::error::Error + '_>> {
        let root = SVGBackend::with_string(&mut buf, (720, 320)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut top = 0.0f64;
        for (_, h) in groups {
            let t = h.total().max(1) as f64;
            top = top.max(h.counts.iter().map(|&c| c as f64 / t).fold(0.0, f64::max));
        }
        let x0 = low as f64;
        let x1 = (low + width * bins as i64) as f64;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 17))
            .margin(10)
            .x_label_area_size(45)
            .y_label_area_size(55)
            .build_cartesian_2d(x0..x1, 0f64..(top * 1.12).max(0.01))?;
        chart
            .configure_mesh()
            .label_style(("sans-serif", 12))
            .axis_desc_style(("sans-serif", 13))
            .disable_x_mesh()
            .light_line_style(TRANSPARENT)
            .x_desc(x_label)
            .y_desc("share")
            .y_label_formatter(&|y| format!("{:.0}%", y * 100.0))
            .x_label_formatter(&|x| format!("{x:.0}"))
            .draw()?;
        let m = groups.len() as f64;
        for (gi, (name, h)) in groups.iter().enumerate() {
            let c = colour(gi);
            let t = h.total().max(1) as f64;
            let w = width as f64 / m;
            let rects: Vec<_> = h
                .counts
                .iter()
                .enumerate()
                .filter(|(_, c)| **c > 0)
                .map(|(i, &cnt)| {
                    let x = (low + width * i as i64) as f64 + w * gi as f64;
                    Rectangle::new(
                        [(x, 0.0), (x + w * 0.9, cnt as f64 / t)],
                        c.mix(0.8).filled(),
                    )
                })
                .collect();
            chart
                .draw_series(rects)?
                .label(name.as_str())
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], c.filled()));
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(200, 200, 200))
            .position(SeriesLabelPosition::UpperRight)
            .draw()?;
        root.present()?;
        Ok(())
    })()
    .is_ok();
    if ok {
        tag(buf, id, title)
    } else {
        String::new()
    }
}

/// A heat map: `values[r][c]` (in `[0, 1]`, `None` = no cell) coloured from red (0) through
/// white (0.5) to blue (1), with the value printed in each cell.
pub fn heat_map(
    id: &str,
    title: &str,
    rows: &[String],
    cols: &[String],
    values: &[Vec<Option<f64>>],
) -> String {
    let (nr, nc) = (rows.len().max(1), cols.len().max(1));
    let label = cols.iter().map(|c| c.chars().count()).max().unwrap_or(1) as u32;
    let cell = (7 * label + 8).clamp(56, 130);
    let w = 170 + cell * nc as u32;
    let h = 120 + cell * nr as u32;
    let mut buf = String::new();
    let ok = (|| -> Result<(), Box<dyn std::error::Error + '_>> {
        let root = SVGBackend::with_string(&mut buf, (w, h)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 17))
            .margin(10)
            .x_label_area_size(40)
            .y_label_area_size(150)
            .build_cartesian_2d(0f64..nc as f64, 0f64..nr as f64)?;
        let cs = cols.to_vec();
        let rs = rows.to_vec();
        let xf = move |x: &f64| {
            let i = (x - 0.5).round();
            if (x - 0.5 - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < cs.len() {
                cs[i as usize].clone()
            } else {
                String::new()
            }
        };
        let yf = move |y: &f64| {
            let i = (y - 0.5).round();
            if (y - 0.5 - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < rs.len() {
                rs[rs.len() - 1 - i as usize].clone()
            } else {
                String::new()
            }
        };
        chart
            .configure_mesh()
            .label_style(("sans-serif", 12))
            .axis_desc_style(("sans-serif", 13))
            .disable_mesh()
            .x_labels(2 * nc + 1)
            .y_labels(2 * nr + 1)
            .x_label_formatter(&xf)
            .y_label_formatter(&yf)
            .x_desc("opponent")
            .y_desc("agent (row's win rate)")
            .draw()?;
        for (r, row) in values.iter().enumerate() {
            for (c, v) in row.iter().enumerate() {
                let Some(v) = *v else { continue };
                let y = (nr - 1 - r) as f64;
                let t = (v.clamp(0.0, 1.0) - 0.5) * 2.0;
                let mixc = |a: u8, b: u8| (a as f64 + (b as f64 - a as f64) * t.abs()) as u8;
                let fill = if t >= 0.0 {
                    RGBColor(mixc(255, 33), mixc(255, 102), mixc(255, 172))
                } else {
                    RGBColor(mixc(255, 178), mixc(255, 24), mixc(255, 43))
                };
                chart.draw_series([Rectangle::new(
                    [(c as f64, y), (c as f64 + 1.0, y + 1.0)],
                    fill.filled(),
                )])?;
                let text_colour = if t.abs() > 0.6 { WHITE } else { BLACK };
                chart.draw_series([Text::new(
                    format!("{:.0}%", v * 100.0),
                    (c as f64 + 0.3, y + 0.6),
                    ("sans-serif", 14).into_font().color(&text_colour),
                )])?;
            }
        }
        root.present()?;
        Ok(())
    })()
    .is_ok();
    if ok {
        tag(buf, id, title)
    } else {
        String::new()
    }
}

/// A point of a [`Line`]: `(x, y, low, high)`.
pub type Point = (f64, f64, f64, f64);

/// A linear axis tick `x` written with as many decimals as ticks `step` apart need, trailing
/// zeros dropped (`0.30000000000000004` with step 0.14 is `0.3`; `2.0` is `2`; never `-0`).
fn tick(x: f64, step: f64) -> String {
    let decimals = if step > 0.0 && step.is_finite() {
        (-step.log10().floor()).clamp(0.0, 12.0) as usize
    } else {
        6
    };
    let mut t = format!("{x:.decimals$}");
    if t.contains('.') {
        t = t.trim_end_matches('0').trim_end_matches('.').to_string();
    }
    if t == "-0" { "0".to_string() } else { t }
}

/// A named line of [`Point`]s.
pub type Line = (String, Vec<Point>);

/// Where [`lines`] puts its legend: in a corner the lines leave empty.
pub use plotters::chart::SeriesLabelPosition as LegendAt;

/// A line per series through `(x, y)` points with interval whiskers `(low, high)`, on a
/// log-10 x axis when `log_x` (search budgets), with the legend at `legend`.
pub fn lines(
    id: &str,
    title: &str,
    (x_label, y_label): (&str, &str),
    series: &[Line],
    log_x: bool,
    legend: LegendAt,
) -> String {
    let pts = series.iter().flat_map(|s| s.1.iter());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y, l, h) in pts {
        let x = if log_x { x.max(1e-9).log10() } else { x };
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(l).min(y);
        y1 = y1.max(h).max(y);
    }
    if x0 > x1 {
        return String::new();
    }
    let (x0, x1) = if log_x {
        ((x0 - 0.15).floor(), (x1 + 0.15).ceil())
    } else {
        let pad = ((x1 - x0) * 0.08).max(0.2);
        (x0 - pad, x1 + pad)
    };
    let ypad = ((y1 - y0) * 0.1).max(0.02);
    let (y0, y1) = (y0 - ypad, y1 + ypad);
    let mut buf = String::new();
    let ok = (|| -> Result<(), Box<dyn std::error::Error + '_>> {
        let root = SVGBackend::with_string(&mut buf, (720, 340)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 17))
            .margin(10)
            .x_label_area_size(45)
            .y_label_area_size(60)
            .build_cartesian_2d(x0..x1, y0..y1)?;
        let xf = move |x: &f64| {
            if !log_x {
                tick(*x, (x1 - x0) / 10.0)
            } else if (x - x.round()).abs() < 1e-6 {
                format!("{:.0}", 10f64.powf(x.round()))
            } else {
                String::new()
            }
        };
        let decades = (x1 - x0).round() as usize + 1;
        chart
            .configure_mesh()
            .x_labels(if log_x { decades } else { 10 })
            .label_style(("sans-serif", 12))
            .axis_desc_style(("sans-serif", 13))
            .light_line_style(TRANSPARENT)
            .x_desc(x_label)
            .y_desc(y_label)
            .x_label_formatter(&xf)
            .draw()?;
        for (si, (name, p)) in series.iter().enumerate() {
            let c = colour(si);
            let tx = |x: f64| if log_x { x.max(1e-9).log10() } else { x };
            chart
                .draw_series(LineSeries::new(
                    p.iter().map(|&(x, y, _, _)| (tx(x), y)),
                    c.stroke_width(2),
                ))?
                .label(name.as_str())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 12, y)], c.stroke_width(2))
                });
            chart.draw_series(
                p.iter()
                    .map(|&(x, y, _, _)| Circle::new((tx(x), y), 4, c.filled())),
            )?;
            for &(x, _, l, h) in p {
                chart.draw_series([PathElement::new(vec![(tx(x), l), (tx(x), h)], c)])?;
            }
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(200, 200, 200))
            .position(legend)
            .draw()?;
        root.present()?;
        Ok(())
    })()
    .is_ok();
    if ok {
        tag(buf, id, title)
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_ticks_carry_the_decimals_their_spacing_needs() {
        assert_eq!(tick(0.30000000000000004, 0.14), "0.3");
        assert_eq!(tick(-0.6000000000000001, 0.14), "-0.6");
        assert_eq!(tick(2.0, 0.74), "2");
        assert_eq!(tick(-0.00001, 0.14), "0");
        assert_eq!(tick(0.0376, 0.0035), "0.038");
        assert_eq!(tick(1500.0, 120.0), "1500");
        // A linear x axis of the SVG never prints float noise such as 0.30000000000000004.
        let svg = lines(
            "t",
            "t",
            ("x", "y"),
            &[(
                "a".to_string(),
                vec![(-0.5, 0.0, -0.1, 0.1), (0.5, 1.0, 0.9, 1.1)],
            )],
            false,
            LegendAt::UpperLeft,
        );
        assert!(!svg.contains("0000000"), "{svg}");
    }

    #[test]
    fn long_category_labels_wrap_within_their_slot() {
        let short = ["random".to_string(), "greedy".to_string()];
        assert_eq!(wrap_labels(&short, 200.0), None);
        let long = [
            "random".to_string(),
            "mcts-fast:iters=5000".to_string(),
            "ismcts:iters=500,c=0.7,rollout=random,depth=0,rounds=0,final=visits".to_string(),
        ];
        // 100 px: 13 characters per line.
        let w = wrap_labels(&long, 100.0).unwrap();
        assert_eq!(w[0], ["random"]);
        assert_eq!(w[1], ["mcts-fast:", "iters=5000"]);
        assert_eq!(w[2].len(), 4);
        assert!(w[2][3].ends_with('…'));
        for l in w.iter().flatten() {
            assert!(l.chars().count() <= 13, "{l}");
        }
        assert!(long[2].starts_with(&w[2][..3].concat()));
        // A bar chart with long labels draws each line as its own text, none overlapping
        // its neighbour's slot.
        let svg = bars(
            "chart-w",
            "W",
            &long,
            &[Series {
                name: "s".into(),
                bars: vec![
                    Some(Bar {
                        value: 1.0,
                        interval: None
                    });
                    3
                ],
            }],
            &BarOptions::default(),
        );
        // 520 px for 3 bars: 143 px, 19 characters per slot.
        assert!(
            svg.contains("\nmcts-fast:iters=\n") && svg.contains("\n5000\n"),
            "{svg}"
        );
        assert!(!svg.contains("mcts-fast:iters=5000"), "{svg}");
    }

    /// Issue 25: rate axes stay within 0–100%, a single bar draws no chart, and labels
    /// break only between words.
    #[test]
    fn rate_axes_are_capped_single_bars_dropped_and_labels_wrapped_between_words() {
        let bar = |v: f64, i: Option<(f64, f64)>| {
            Some(Bar {
                value: v,
                interval: i,
            })
        };
        let rates = |b: Vec<Option<Bar>>| {
            let cats: Vec<String> = (0..b.len()).map(|i| format!("c{i}")).collect();
            let series = |name: &str| Series {
                name: name.into(),
                bars: b.clone(),
            };
            bars(
                "chart-r",
                "R",
                &cats,
                &[series("a"), series("b")],
                &BarOptions {
                    percent: true,
                    ..Default::default()
                },
            )
        };
        let svg = rates(vec![
            bar(0.98, Some((0.9, 1.0))),
            bar(0.05, Some((0.0, 0.2))),
        ]);
        // Tick labels are written as `>\n100%\n</text>`.
        assert!(svg.contains("\n100%\n"), "{svg}");
        for above in ["110%", "120%", "-10%", "-5%"] {
            assert!(!svg.contains(&format!("\n{above}\n")), "{above} in {svg}");
        }
        // One bar (the other series and categories empty) is no chart.
        let one = bars(
            "chart-one",
            "One",
            &["x".into(), "y".into()],
            &[Series {
                name: "a".into(),
                bars: vec![bar(0.5, None), None],
            }],
            &BarOptions::default(),
        );
        assert_eq!(one, "");
        // Words are never cut: `rice_wine_maker` breaks after its underscores, and a word
        // longer than the slot keeps a line of its own.
        let w = wrap_labels(&["rice_wine_maker".into(), "Extraordinarily".into()], 60.0).unwrap();
        assert_eq!(w[0], ["rice_", "wine_", "maker"]);
        assert_eq!(w[1], ["Extraordinarily"]);
    }

    #[test]
    fn charts_are_tagged_svg_with_their_data() {
        let s = bars(
            "chart-x",
            "Win <rates>",
            &["a".into(), "b".into()],
            &[Series {
                name: "s".into(),
                bars: vec![
                    Some(Bar {
                        value: 0.6,
                        interval: Some((0.5, 0.7)),
                    }),
                    Some(Bar {
                        value: 0.4,
                        interval: None,
                    }),
                ],
            }],
            &BarOptions {
                reference: Some((0.5, "fair".into())),
                percent: true,
                ..Default::default()
            },
        );
        assert!(
            s.starts_with("<svg id=\"chart-x\""),
            "{}",
            &s[..80.min(s.len())]
        );
        assert!(s.contains("<title>Win &lt;rates&gt;</title>"));
        assert!(
            s.contains("<rect") && s.contains("\na\n") && s.contains("fair"),
            "{s}"
        );
        let h = Histogram::of_integers(&[1, 2, 2, 3], 10).unwrap();
        let s = histograms("chart-h", "H", "score", &[("g".into(), h)]);
        assert!(s.contains("id=\"chart-h\"") && s.contains("<rect"));
        let s = heat_map(
            "chart-m",
            "M",
            &["a".into(), "b".into()],
            &["a".into(), "b".into()],
            &[vec![None, Some(0.8)], vec![Some(0.2), None]],
        );
        assert!(s.contains("80%") && s.contains("20%"));
        let s = lines(
            "chart-l",
            "L",
            ("iters", "score"),
            &[(
                "mcts".into(),
                vec![(100.0, 0.5, 0.4, 0.6), (1000.0, 0.7, 0.6, 0.8)],
            )],
            true,
            LegendAt::LowerRight,
        );
        assert!(s.contains("id=\"chart-l\"") && s.contains("1000"));
    }
}
