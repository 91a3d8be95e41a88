//! A small page-layout writer over `pdf-writer`: A4 pages, the PDF base fonts (Helvetica and
//! Helvetica-Bold, so nothing is embedded and a document is a few kilobytes), lines of text
//! at a cursor that moves down the page, table rows with left- or right-aligned cells, and a
//! new page when the cursor reaches the bottom margin. Text is encoded as Windows-1252
//! (`WinAnsiEncoding`); a character it cannot hold prints as `?`.

use pdf_writer::{Content, Finish, Name, Pdf, Rect, Ref, Str};

/// A4 in points.
const PAGE_WIDTH: f32 = 595.0;
const PAGE_HEIGHT: f32 = 842.0;
/// The margin on every side.
pub const MARGIN: f32 = 50.0;
/// The right edge of the text area.
pub const RIGHT: f32 = PAGE_WIDTH - MARGIN;

const REGULAR: Name<'static> = Name(b"F1");
const BOLD: Name<'static> = Name(b"F2");

/// Helvetica's advance widths (1/1000 em) for the printable ASCII range, from its AFM metrics:
/// right-aligned figures and truncated cells need them. Other characters count as 556.
const HELVETICA_WIDTHS: [u16; 95] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278,
    278, // ' '..'/'
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, // digits
    278, 278, 584, 584, 584, 556, 1015, // ':'..'@'
    667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667,
    611, 722, 667, 944, 667, 667, 611, // 'A'..'Z'
    278, 278, 278, 469, 556, 333, // '['..'`'
    556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500,
    278, 556, 500, 722, 500, 500, 500, // 'a'..'z'
    334, 260, 334, 584, // '{'..'~'
];

/// Which way a cell's text runs from its x position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// Starts at x.
    Left,
    /// Ends at x.
    Right,
}

/// One cell of a table row: where it sits, how it aligns, at most how wide it may be.
#[derive(Debug, Clone, Copy)]
pub struct Column {
    /// The left edge (left-aligned) or the right edge (right-aligned).
    pub x: f32,
    /// Alignment.
    pub align: Align,
    /// Longer text is cut with an ellipsis.
    pub width: f32,
}

/// The width of `text` at `size` points.
pub fn text_width(text: &str, size: f32) -> f32 {
    let units: u32 = text
        .chars()
        .map(|c| {
            let i = (c as u32).wrapping_sub(32) as usize;
            u32::from(HELVETICA_WIDTHS.get(i).copied().unwrap_or(556))
        })
        .sum();
    units as f32 * size / 1000.0
}

/// `text` cut to fit `width` points, with an ellipsis when cut.
fn fit(text: &str, size: f32, width: f32) -> String {
    if text_width(text, size) <= width {
        return text.to_string();
    }
    let mut out = String::new();
    for c in text.chars() {
        out.push(c);
        if text_width(&out, size) + text_width("...", size) > width {
            out.pop();
            break;
        }
    }
    out.push_str("...");
    out
}

fn encode(text: &str) -> Vec<u8> {
    text.chars()
        .map(|c| {
            let mut buffer = [0; 4];
            let (bytes, _, unmappable) =
                encoding_rs::WINDOWS_1252.encode(c.encode_utf8(&mut buffer));
            match (unmappable, bytes.as_ref()) {
                (false, [b]) => *b,
                _ => b'?',
            }
        })
        .collect()
}

/// A document being written, page by page, top to bottom.
pub struct Document {
    pages: Vec<Content>,
    /// The baseline of the next line, in points from the bottom of the page.
    y: f32,
    title: String,
}

impl Document {
    /// An empty document with one page; `title` is the PDF's title and each page's footer.
    pub fn new(title: impl Into<String>) -> Document {
        Document {
            pages: vec![Content::new()],
            y: PAGE_HEIGHT - MARGIN,
            title: title.into(),
        }
    }

    fn page(&mut self) -> &mut Content {
        if self.pages.is_empty() {
            self.pages.push(Content::new());
        }
        let last = self.pages.len() - 1;
        &mut self.pages[last]
    }

    /// Makes room for `height` points, starting a new page when the cursor would pass the
    /// bottom margin (which also holds the footer).
    pub fn need(&mut self, height: f32) {
        if self.y - height < MARGIN + 20.0 {
            self.pages.push(Content::new());
            self.y = PAGE_HEIGHT - MARGIN;
        }
    }

    /// Moves the cursor down.
    pub fn gap(&mut self, points: f32) {
        self.y -= points;
    }

    fn put(&mut self, x: f32, y: f32, text: &str, size: f32, bold: bool) {
        let bytes = encode(text);
        let page = self.page();
        page.begin_text();
        page.set_font(if bold { BOLD } else { REGULAR }, size);
        page.next_line(x, y);
        page.show(Str(&bytes));
        page.end_text();
    }

    /// One line of text at `x`, then the cursor moves below it.
    pub fn line(&mut self, x: f32, text: &str, size: f32, bold: bool) {
        self.need(size * 1.4);
        self.y -= size;
        let y = self.y;
        self.put(x, y, &fit(text, size, RIGHT - x), size, bold);
        self.y -= size * 0.4;
    }

    /// Text wrapped at word boundaries to the text area from `x`.
    pub fn paragraph(&mut self, x: f32, text: &str, size: f32) {
        let width = RIGHT - x;
        for source_line in text.lines() {
            let mut current = String::new();
            for word in source_line.split_whitespace() {
                let candidate = if current.is_empty() {
                    word.to_string()
                } else {
                    format!("{current} {word}")
                };
                if text_width(&candidate, size) > width && !current.is_empty() {
                    self.line(x, &current, size, false);
                    current = word.to_string();
                } else {
                    current = candidate;
                }
            }
            self.line(x, &current, size, false);
        }
    }

    /// One table row: each cell in its column, then the cursor moves below it.
    pub fn row(&mut self, columns: &[Column], cells: &[&str], size: f32, bold: bool) {
        self.need(size * 1.6);
        self.y -= size;
        let y = self.y;
        for (column, text) in columns.iter().zip(cells) {
            let text = fit(text, size, column.width);
            let x = match column.align {
                Align::Left => column.x,
                Align::Right => column.x - text_width(&text, size),
            };
            self.put(x, y, &text, size, bold);
        }
        self.y -= size * 0.6;
    }

    /// A thin horizontal rule across the text area.
    pub fn rule(&mut self) {
        self.need(6.0);
        self.y -= 3.0;
        let y = self.y;
        let page = self.page();
        page.set_line_width(0.5);
        page.set_stroke_rgb(0.6, 0.6, 0.6);
        page.move_to(MARGIN, y);
        page.line_to(RIGHT, y);
        page.stroke();
        self.y -= 3.0;
    }

    /// A label and its value on one line, both right-aligned at `label_right` and `RIGHT`
    /// (a totals block).
    pub fn total(&mut self, label: &str, value: &str, size: f32, bold: bool) {
        let columns = [
            Column {
                x: RIGHT - 110.0,
                align: Align::Right,
                width: 200.0,
            },
            Column {
                x: RIGHT,
                align: Align::Right,
                width: 100.0,
            },
        ];
        self.row(&columns, &[label, value], size, bold);
    }

    /// The finished PDF's bytes: every page with a "title, page n of m" footer.
    pub fn finish(mut self) -> Vec<u8> {
        let count = self.pages.len();
        let title = self.title.clone();
        for n in 0..count {
            let footer = format!("{title}  -  page {} of {count}", n + 1);
            let bytes = encode(&footer);
            let page = &mut self.pages[n];
            page.set_fill_gray(0.4);
            page.begin_text();
            page.set_font(REGULAR, 8.0);
            page.next_line(MARGIN, MARGIN - 10.0);
            page.show(Str(&bytes));
            page.end_text();
        }
        let mut pdf = Pdf::new();
        let catalog = Ref::new(1);
        let tree = Ref::new(2);
        let regular = Ref::new(3);
        let bold = Ref::new(4);
        let info = Ref::new(5);
        let first_page = 6;
        let page_ids: Vec<Ref> = (0..count)
            .map(|n| Ref::new(first_page + 2 * n as i32))
            .collect();
        pdf.catalog(catalog).pages(tree);
        pdf.pages(tree)
            .kids(page_ids.iter().copied())
            .count(count as i32);
        pdf.type1_font(regular)
            .base_font(Name(b"Helvetica"))
            .encoding_predefined(Name(b"WinAnsiEncoding"));
        pdf.type1_font(bold)
            .base_font(Name(b"Helvetica-Bold"))
            .encoding_predefined(Name(b"WinAnsiEncoding"));
        pdf.document_info(info)
            .title(pdf_writer::TextStr(&title))
            .producer(pdf_writer::TextStr("Strata"));
        for (n, content) in self.pages.into_iter().enumerate() {
            let id = page_ids[n];
            let content_id = Ref::new(first_page + 2 * n as i32 + 1);
            let mut page = pdf.page(id);
            page.media_box(Rect::new(0.0, 0.0, PAGE_WIDTH, PAGE_HEIGHT));
            page.parent(tree);
            page.contents(content_id);
            let mut resources = page.resources();
            let mut fonts = resources.fonts();
            fonts.pair(REGULAR, regular);
            fonts.pair(BOLD, bold);
            fonts.finish();
            resources.finish();
            page.finish();
            pdf.stream(content_id, &content.finish());
        }
        pdf.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_align_right_and_long_text_is_cut() {
        assert_eq!(text_width("10.00", 10.0), 5.56 * 4.0 + 2.78);
        let cut = fit(&"W".repeat(100), 10.0, 50.0);
        assert!(cut.ends_with("...") && text_width(&cut, 10.0) <= 50.0);
        assert_eq!(fit("short", 10.0, 100.0), "short");
    }

    #[test]
    fn text_outside_windows_1252_prints_as_a_question_mark() {
        assert_eq!(encode("Caf\u{e9} \u{20ac}5"), b"Caf\xe9 \x805".to_vec());
        assert_eq!(encode("a\u{4e2d}b"), b"a?b".to_vec());
        assert_eq!(encode("R&D"), b"R&D".to_vec());
    }

    #[test]
    fn a_long_document_breaks_into_numbered_pages() {
        let mut doc = Document::new("Test");
        for n in 0..120 {
            doc.line(MARGIN, &format!("line {n}"), 10.0, false);
        }
        let bytes = doc.finish();
        assert!(bytes.starts_with(b"%PDF-"));
        let text = String::from_utf8_lossy(&bytes);
        assert!(text.contains("/Count 3"), "three pages");
        assert!(text.contains("page 3 of 3"));
    }
}
