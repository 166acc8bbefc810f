//! Calendar dates from the millisecond timestamps the caller supplies (the core reads no
//! clock): shared by the retrieved-memories section, the recall tools and chat templates.

/// Days since 1970-01-01 to (year, month, day), Howard Hinnant's civil-from-days.
pub fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// (year, month, day) to days since 1970-01-01, the inverse of `civil_from_days`.
pub fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// `YYYY-MM-DD` (UTC) of a time in ms since the epoch.
pub fn format_date(ms: f64) -> String {
    if !ms.is_finite() {
        return "unknown date".into();
    }
    let (y, m, d) = civil_from_days((ms / 86_400_000.0).floor() as i64);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(format_date(0.0), "1970-01-01");
        assert_eq!(format_date(1_709_251_200_000.0), "2024-03-01");
        assert_eq!(format_date(951_782_400_000.0), "2000-02-29");
    }
}
