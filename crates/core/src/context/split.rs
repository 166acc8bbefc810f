//! How strategy "retrieval" splits what is left of the budget between the newest turns and
//! memories. The newest turns come first as far as the thread needs them: a follow-up ("and
//! the second option?", "that gives a 500 error") is answered from the exchange it follows,
//! and in chats with an assistant that exchange is one long answer, larger than any fixed
//! share. Memories then take what they are worth (only those above a relevance floor,
//! `retrieved::pick`), and the newest turns take whatever the memories leave, so a turn with
//! nothing relevant in the past is given its recent history whole.

use super::walk::Thread;

/// The previous exchange (the last user message and the reply to it) is kept whole when it
/// costs at most this part of what is left.
pub const EXCHANGE_SHARE: f64 = 0.5;
/// Else the previous turn alone, when it costs at most this part: the answer a follow-up
/// refers to matters more than any one memory.
pub const TURN_SHARE: f64 = 0.75;
/// The exchange before that too, when both cost at most this part: "compare it with what you
/// said before" reaches one exchange further, and at large budgets it is cheap.
pub const TWO_EXCHANGES_SHARE: f64 = 0.3;

/// Tokens the newest turns get before memories, of `remaining`: the fixed floor
/// (`recentShare`) or the thread the next message follows, whichever is more.
pub(super) fn recent_first(remaining: usize, recent_share: f32, thread: &Thread) -> usize {
    let part = |share: f64| (remaining as f64 * share) as usize;
    let mut first = part(f64::from(recent_share.clamp(0.0, 1.0)));
    let fits = |cost: usize, share: f64| cost <= part(share);
    if let Some(turn) = thread.last_turn.filter(|&t| fits(t, TURN_SHARE)) {
        first = first.max(turn);
    }
    if let Some(&one) = thread
        .exchanges
        .first()
        .filter(|&&t| fits(t, EXCHANGE_SHARE))
    {
        first = first.max(one);
    }
    if let Some(&two) = thread
        .exchanges
        .get(1)
        .filter(|&&t| fits(t, TWO_EXCHANGES_SHARE))
    {
        first = first.max(two);
    }
    first
}

#[cfg(test)]
mod tests {
    use super::*;

    fn thread(last_turn: usize, exchanges: &[usize]) -> Thread {
        Thread {
            last_turn: Some(last_turn),
            exchanges: exchanges.to_vec(),
        }
    }

    #[test]
    fn the_previous_exchange_goes_first_when_it_fits_in_half() {
        assert_eq!(recent_first(1000, 0.1, &thread(400, &[500, 2000])), 500);
        assert_eq!(recent_first(1000, 0.1, &thread(400, &[501, 2000])), 400);
    }

    #[test]
    fn the_previous_turn_alone_up_to_three_quarters() {
        assert_eq!(recent_first(1000, 0.1, &thread(750, &[900])), 750);
        assert_eq!(recent_first(1000, 0.1, &thread(751, &[900])), 100);
    }

    #[test]
    fn two_exchanges_when_cheap_and_never_below_the_floor() {
        assert_eq!(
            recent_first(10_000, 0.1, &thread(1000, &[1200, 2900])),
            2900
        );
        assert_eq!(
            recent_first(10_000, 0.1, &thread(1000, &[1200, 3100])),
            1200
        );
        assert_eq!(recent_first(10_000, 0.5, &thread(10, &[20, 30])), 5000);
        assert_eq!(recent_first(1000, 0.1, &Thread::default()), 100);
    }
}
