//! The little JSON this program writes (and, for `simulate merge`, reads back): strings
//! escaped as JSON requires.

/// `text` as a JSON string, quotes included: `"`, `\` and control characters escaped.
/// Pre: none. Post: a valid JSON string literal denoting `text`.
pub fn string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A finite number with 4 decimals, or `null`.
/// Pre: none. Post: valid JSON.
pub fn number(v: f64) -> String {
    if v.is_finite() {
        format!("{v:.4}")
    } else {
        "null".into()
    }
}

/// The rules as a JSON object: `{"preset", "touch", "sunk", "rotate", "ships": [{"name",
/// "size"}, ...]}` (ships in placement order).
/// Pre: none. Post: valid JSON.
pub fn rules(rules: &crate::rules::Rules) -> String {
    let fleet = rules.fleet();
    let ships: Vec<String> = fleet
        .ship_kinds()
        .filter_map(|k| fleet.kinds().get(k))
        .map(|k| format!("{{\"name\": {}, \"size\": {}}}", string(&k.name), k.shape.size()))
        .collect();
    format!(
        "{{\"preset\": {}, \"touch\": {}, \"sunk\": {}, \"rotate\": {}, \"ships\": [{}]}}",
        string(rules.preset_name()),
        rules.touch(),
        string(rules.sunk().word()),
        rules.rotate(),
        ships.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_what_json_needs() {
        assert_eq!(string("Y wing"), "\"Y wing\"");
        assert_eq!(string("a\"b\\c\nd\u{1}"), "\"a\\\"b\\\\c\\nd\\u0001\"");
        assert_eq!(number(1.0 / 3.0), "0.3333");
        assert_eq!(number(f64::NAN), "null");
        let r = rules(&crate::rules::Rules::preset("classic").unwrap());
        assert!(r.starts_with("{\"preset\": \"classic\", \"touch\": true, \"sunk\": \"named\""), "{r}");
        assert!(r.contains("{\"name\": \"carrier\", \"size\": 5}"), "{r}");
    }
}
