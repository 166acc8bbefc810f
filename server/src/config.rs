//! Command-line options. Parsed by hand: a handful of flags does not need an argument-parsing
//! crate in a build that CI runs from scratch.

use std::time::Duration;

pub const USAGE: &str = "\
llm-memory-server: the sync server of llm-memory (docs/sync-protocol.md)

Usage: llm-memory-server (--dev | --tokens FILE) [options]

  --dev                 every distinct bearer token is its own user (development only)
  --tokens FILE         production: lines `TOKEN USER`; other tokens are refused
  --store URL           sqlite:PATH (default sqlite:data/sync.db), postgres://... or redis://...
  --host HOST           address to listen on (default 127.0.0.1)
  --port N              port (default 8787; 0 picks a free one)
  --redis-ttl DURATION  Redis: keep a session this long after its last change
                        (default 24h; 0 keeps it until deleted; units s, m, h, d)
  --rate N              requests per second per user (default 20; 0: no limit)
  --burst N             requests a user may send at once (default 60)
  --pg-pool N           Postgres connections at most (default 16)
  --allow-origin ORIGIN browser origin allowed to call (default *)
  --header-timeout DURATION  close a connection whose request headers take longer (default 10s)
";

#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    pub dev: bool,
    pub tokens: Option<String>,
    pub store: String,
    pub host: String,
    pub port: u16,
    pub redis_ttl: Duration,
    pub rate: f64,
    pub burst: f64,
    pub pg_pool: usize,
    pub allow_origin: String,
    pub header_timeout: Duration,
}

/// Reads `10`, `10s`, `5m`, `24h`, `7d` (a bare number is seconds).
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let (digits, unit) = text.split_at(
        text.find(|c: char| !c.is_ascii_digit())
            .unwrap_or(text.len()),
    );
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("`{text}` is not a duration like 90s, 30m, 24h"))?;
    let secs = match unit {
        "" | "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86400,
        _ => return Err(format!("`{text}`: the unit is s, m, h or d")),
    };
    Ok(Duration::from_secs(n.saturating_mul(secs)))
}

impl Config {
    pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Config, String> {
        let mut c = Config {
            dev: false,
            tokens: None,
            store: "sqlite:data/sync.db".into(),
            host: "127.0.0.1".into(),
            port: 8787,
            redis_ttl: Duration::from_secs(24 * 3600),
            rate: 20.0,
            burst: 60.0,
            pg_pool: 16,
            allow_origin: "*".into(),
            header_timeout: Duration::from_secs(10),
        };
        let mut args = args.into_iter();
        while let Some(flag) = args.next() {
            if flag == "--dev" {
                c.dev = true;
                continue;
            }
            if flag == "--help" || flag == "-h" {
                return Err(String::new());
            }
            let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
            let number = |v: &str| {
                v.parse::<f64>()
                    .ok()
                    .filter(|n| n.is_finite() && *n >= 0.0)
                    .ok_or_else(|| format!("{flag}: `{v}` is not a non-negative number"))
            };
            match flag.as_str() {
                "--tokens" => c.tokens = Some(value),
                "--store" => c.store = value,
                "--host" => c.host = value,
                "--port" => c.port = value.parse().map_err(|_| format!("--port: `{value}`"))?,
                "--redis-ttl" => c.redis_ttl = parse_duration(&value)?,
                "--rate" => c.rate = number(&value)?,
                "--burst" => c.burst = number(&value)?,
                "--pg-pool" => {
                    c.pg_pool = value
                        .parse()
                        .ok()
                        .filter(|n| *n > 0)
                        .ok_or_else(|| format!("--pg-pool: `{value}`"))?
                }
                "--allow-origin" => c.allow_origin = value,
                "--header-timeout" => {
                    c.header_timeout = Some(parse_duration(&value)?)
                        .filter(|d| !d.is_zero())
                        .ok_or("--header-timeout must be at least 1s")?
                }
                _ => return Err(format!("unknown option {flag}")),
            }
        }
        if c.dev == c.tokens.is_some() {
            return Err("give either --dev or --tokens FILE".into());
        }
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn options_parse_and_conflicts_are_refused() {
        let c = Config::parse(args("--dev --store redis://x --redis-ttl 2h --port 0")).unwrap();
        assert_eq!(c.store, "redis://x");
        assert_eq!(c.redis_ttl, Duration::from_secs(7200));
        assert_eq!(c.port, 0);
        assert!(Config::parse(args("")).is_err());
        assert!(Config::parse(args("--dev --tokens f")).is_err());
        assert!(Config::parse(args("--dev --port")).is_err());
        assert!(Config::parse(args("--dev --rate -1")).is_err());
        assert!(Config::parse(args("--dev --bogus 1")).is_err());
        let c = Config::parse(args("--dev --header-timeout 2s")).unwrap();
        assert_eq!(c.header_timeout, Duration::from_secs(2));
        assert!(Config::parse(args("--dev --header-timeout 0")).is_err());
    }

    #[test]
    fn durations_take_units() {
        assert_eq!(parse_duration("90").unwrap(), Duration::from_secs(90));
        assert_eq!(parse_duration("30m").unwrap(), Duration::from_secs(1800));
        assert_eq!(parse_duration("0").unwrap(), Duration::ZERO);
        assert!(parse_duration("1w").is_err());
        assert!(parse_duration("h").is_err());
    }
}
