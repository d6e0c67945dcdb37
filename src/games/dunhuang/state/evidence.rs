//! The evidence window of weighted determinization ([`crate::agents::belief`]): what a
//! search agent needs to replay the recent decisions of a determinized world.
//!
//! A determinized world ([`GameState::determinize`](crate::game::GameState::determinize))
//! is a present state; the opponent model of Policy-Based Inference scores the opponents'
//! past decisions, so it needs the world's *past* states. The state keeps, inline (no
//! heap, so `apply` still allocates nothing), two **segments**: the turn before the
//! current one and the current turn. A segment is a snapshot of the state at the start of
//! its turn ([`TurnStart`]) and the decisions played since (seat and action), plus the
//! seats that saw not every card move since the snapshot.
//!
//! **Rebuilding a world's past.** Seat `p`'s world shares every card location that `p`
//! knows with the real game; the cards `p` does not know (`U`) are dealt anew. If no card
//! moved unseen by `p` since a segment's snapshot (no keep, give or face-down discard of
//! another seat: DUN-13), the cards of `U` sat at the snapshot where they sit now, so
//! the world at the snapshot is the snapshot with the cards of `U` put where the world
//! holds them ([`State::replay_evidence`]). Every card outside `U` is known to `p` now,
//! and its place at the snapshot follows from what `p` saw since (a public move, a draw to
//! the Market), so the rebuilt state reads nothing `p` could not know: two worlds of one
//! information state rebuild the same pasts. From there the segment's decisions are
//! replayed in order; the replay stops at the first decision that draws chance (an
//! Interpreter or Diplomat draw of `p`'s own) or that the rebuilt state does not allow.
//!
//! **Cost.** The segments add about 640 bytes to the state (a clone copies them). They are
//! written only while the real game is played: a state being played out
//! ([`GameState::start_playout`](crate::game::GameState::start_playout)) or a determinized
//! world (frozen by `determinize`) skips them with one test per ply. Not saved: a loaded
//! position has no evidence until its next turn begins.
//!
//! **Not covered.** Turns before the previous one (at 3 and 4 players, the turns of the
//! other opponents); the setup keeps (before the first snapshot); a segment with more than
//! [`SEGMENT_PLIES`] decisions.

use super::*;

/// Most decisions kept per segment (a turn takes at most 9 plies, the other seats'
/// decisions included); a longer segment is dropped.
pub(super) const SEGMENT_PLIES: usize = 16;

/// The state at the start of a turn: every field a turn changes, except the deal order,
/// the bottom batches, the metrics and the history digests (a rebuilt past takes those
/// from the world).
#[derive(Clone, Copy, Debug)]
pub(super) struct TurnStart {
    know: Knowledge,
    market: [u8; 8],
    shop: [u64; MAX_PLAYERS],
    holder: [u8; 11],
    zh: u16,
    coins: [u16; MAX_PLAYERS],
    prestige: [u16; MAX_PLAYERS],
    camel: u8,
    first: u8,
    active: u8,
    phase: Phase,
    resume: Phase,
    actor: u8,
    steps: u8,
    victim: u8,
    to_give: u8,
    given: u8,
    pending: u8,
    deferred: u8,
    discarded: u8,
    triggered: bool,
    winner: u8,
    ply: u32,
    turns: u16,
}

/// One turn of the evidence window.
#[derive(Clone, Copy, Debug)]
pub(super) struct Segment {
    /// The snapshot at the turn's start; `None`: no usable segment.
    start: Option<TurnStart>,
    /// The seat of each decision since the snapshot.
    seats: [u8; SEGMENT_PLIES],
    /// The action id of each decision since the snapshot.
    actions: [u16; SEGMENT_PLIES],
    len: u8,
    /// Bit `p`: a card moved unseen by seat `p` since the snapshot.
    unseen: u8,
}

impl Segment {
    const EMPTY: Segment = Segment {
        start: None,
        seats: [0; SEGMENT_PLIES],
        actions: [0; SEGMENT_PLIES],
        len: 0,
        unseen: 0,
    };
}

/// The two segments and whether they are still written. Ignored by `==` (like the
/// playout mark: two states equal but for it are the same position).
#[derive(Clone, Copy)]
pub(crate) struct Evidence {
    /// The previous turn, then the current one.
    segments: [Segment; 2],
    /// Set in determinized worlds: the window is the root's, never extended.
    frozen: bool,
}

impl Default for Evidence {
    fn default() -> Self {
        Evidence {
            segments: [Segment::EMPTY; 2],
            frozen: false,
        }
    }
}

impl PartialEq for Evidence {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl fmt::Debug for Evidence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b] = &self.segments;
        write!(f, "Evidence({}+{} decisions)", a.len, b.len)
    }
}

/// A [`Chance`] for replays: answers 0 and remembers that it was asked (the replay then
/// stops, since the real draw is not known).
struct Asked(bool);

impl Chance for Asked {
    fn below(&mut self, _: u32) -> u32 {
        self.0 = true;
        0
    }
}

thread_local! {
    /// The legal-action buffer of [`State::replay_evidence`].
    static REPLAY_LEGAL: std::cell::RefCell<Vec<Action>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl State {
    /// Whether the evidence window is written at this state (the real game only).
    #[inline(always)]
    fn keeps_evidence(&self) -> bool {
        !self.playout.0 && !self.evidence.frozen
    }

    /// A new turn begins (its stage and active seat are set): the current segment becomes
    /// the previous one and a new one starts from this state.
    pub(super) fn evidence_turn_start(&mut self) {
        if !self.keeps_evidence() {
            return;
        }
        let start = TurnStart {
            know: self.know,
            market: self.market,
            shop: self.shop,
            holder: self.holder,
            zh: self.zh,
            coins: self.coins,
            prestige: self.prestige,
            camel: self.camel,
            first: self.first,
            active: self.active,
            phase: self.phase,
            resume: self.resume,
            actor: self.actor,
            steps: self.steps,
            victim: self.victim,
            to_give: self.to_give,
            given: self.given,
            pending: self.pending,
            deferred: self.deferred,
            discarded: self.discarded,
            triggered: self.triggered,
            winner: self.winner,
            ply: self.ply,
            turns: self.turns,
        };
        let e = &mut self.evidence;
        e.segments[0] = e.segments[1];
        e.segments[1] = Segment {
            start: Some(start),
            ..Segment::EMPTY
        };
    }

    /// `player` is about to play `action`: appended to the current segment.
    #[inline(always)]
    pub(super) fn evidence_action(&mut self, player: Seat, action: Action) {
        if !self.keeps_evidence() {
            return;
        }
        let seg = &mut self.evidence.segments[1];
        if seg.start.is_none() {
            return;
        }
        let i = usize::from(seg.len);
        if i == SEGMENT_PLIES {
            *seg = Segment::EMPTY;
            return;
        }
        seg.seats[i] = player as u8;
        seg.actions[i] = action.id() as u16;
        seg.len += 1;
    }

    /// Cards moved unseen by every seat outside `saw`: no segment that holds the move is
    /// evidence for those seats any more.
    pub(super) fn evidence_unseen(&mut self, saw: SeatSet) {
        if !self.keeps_evidence() {
            return;
        }
        for seg in &mut self.evidence.segments {
            seg.unseen |= !saw.0;
        }
    }

    /// Stops writing the evidence window (a determinized world keeps its root's).
    pub(super) fn freeze_evidence(&mut self) {
        self.evidence.frozen = true;
    }

    /// Replays this world's evidence window for `observer` (module docs): for each of the
    /// (at most two) segments that no unseen card move spoils for `observer`, rebuilds the
    /// world at the segment's snapshot and calls `f(before, seat, action)` for its
    /// decisions in order, with the rebuilt state just before each. `self` must be a world
    /// of `observer` (the real state or one [`GameState::determinize`] dealt for it).
    /// Allocates nothing but the states it rebuilds (no heap: copies on the stack).
    pub fn replay_evidence(&self, observer: Seat, f: &mut dyn FnMut(&State, Seat, Action)) {
        let unknown = self.know.unknown_to(observer);
        for seg in &self.evidence.segments {
            let Some(start) = seg.start else { continue };
            if seg.unseen & (1 << observer) != 0 {
                continue;
            }
            let Some(mut s) = self.rebuild(&start, unknown) else {
                continue;
            };
            for i in 0..usize::from(seg.len) {
                let seat = usize::from(seg.seats[i]);
                let Some(action) = Action::from_id(usize::from(seg.actions[i])) else {
                    break;
                };
                let legal = s.turn() == Turn::Player(seat)
                    && REPLAY_LEGAL.with_borrow_mut(|buf| s.is_legal(seat, action, buf));
                if !legal {
                    break;
                }
                f(&s, seat, action);
                if i + 1 == usize::from(seg.len) {
                    break;
                }
                let mut asked = Asked(false);
                s.apply_unchecked(seat, action, &mut asked);
                if asked.0 {
                    break;
                }
            }
        }
    }

    /// This world at `start`: the snapshot with the cards of `unknown` where this world
    /// holds them, marked as played out (no digests, no evidence). `None` when the
    /// result would not be a state (a card of the bottom without a batch: it was drawn
    /// from the bottom since, and the snapshot's batch is not kept).
    fn rebuild(&self, start: &TurnStart, unknown: u64) -> Option<State> {
        let mut s = self.clone();
        let mut know = start.know;
        for c in bits(unknown) {
            know.move_card(c, self.know.zone_of(c), SeatSet::EMPTY);
        }
        if bits(know.cards(BOTTOM)).any(|c| s.batch_of[c] == 0) {
            return None;
        }
        s.know = know;
        s.market = start.market;
        s.shop = start.shop;
        s.holder = start.holder;
        s.zh = start.zh;
        s.coins = start.coins;
        s.prestige = start.prestige;
        s.camel = start.camel;
        s.first = start.first;
        s.active = start.active;
        s.phase = start.phase;
        s.resume = start.resume;
        s.actor = start.actor;
        s.steps = start.steps;
        s.victim = start.victim;
        s.to_give = start.to_give;
        s.given = start.given;
        s.pending = start.pending;
        s.deferred = start.deferred;
        s.discarded = start.discarded;
        s.triggered = start.triggered;
        s.winner = start.winner;
        s.ply = start.ply;
        s.turns = start.turns;
        // The pile's order is hidden: the next draw lists the pile again (as after
        // `determinize`).
        s.order = [0; 64];
        s.order_pile = 0;
        s.playout = PlayoutMark(true);
        s.evidence.frozen = true;
        Some(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules;
    use crate::rng::test_rng;

    /// Random games at 2, 3 and 4 players: before every decision, every decision the
    /// replay reports for the deciding seat is the one played at that ply, and the state
    /// it rebuilt holds the real past's public table and every zone's goods (by value); in
    /// a world dealt for the seat by `determinize`, the same table, the seat's hand and
    /// every zone's size (which fails if a card that moved unseen by the seat were let
    /// through: the world's hidden cards would then sit in zones of other sizes).
    #[test]
    fn replays_rebuild_the_real_past_in_the_world() {
        let mut replayed = Vec::new();
        for n in 2..=4 {
            let mut count = 0usize;
            let r = rules::<State>(&Params::default(), n).unwrap();
            let mut rng = test_rng(n as u64);
            let mut buf = Vec::new();
            for _ in 0..6 {
                let mut s = State::new_game(r, &mut rng);
                // The real state before each ply, and the action played there.
                let mut past: Vec<(State, Seat, Action)> = Vec::new();
                while let Turn::Player(p) = s.turn() {
                    for (is_real, world) in [(true, s.clone()), (false, s.determinize(p, &mut rng))]
                    {
                        world.replay_evidence(p, &mut |before, seat, action| {
                            let (real, q, a) = &past[before.ply as usize];
                            assert_eq!((*q, *a), (seat, action), "ply {}", before.ply);
                            assert_eq!(before.market, real.market);
                            assert_eq!(before.shop, real.shop);
                            assert_eq!(before.holder, real.holder);
                            assert_eq!(before.coins, real.coins);
                            assert_eq!(before.camel, real.camel);
                            assert_eq!(before.phase, real.phase);
                            assert_eq!(before.turns, real.turns);
                            // Goods are compared by value: which card of a value a
                            // hand gives up is decided by card ids, which a world deals
                            // anew.
                            for z in 0..NUM_ZONES {
                                let (b, r) = (before.know.cards(z), real.know.cards(z));
                                assert_eq!(b.count_ones(), r.count_ones(), "zone {z} size");
                                if is_real || z == p || z == TABLE {
                                    assert_eq!(before.counts(b), real.counts(r), "zone {z}");
                                }
                            }
                            count += 1;
                        });
                    }
                    let a = s.random_action(p, &mut buf, &mut rng);
                    past.push((s.clone(), p, a));
                    s.apply_unchecked(p, a, &mut rng);
                }
            }
            replayed.push((n, count));
        }
        assert!(replayed.iter().all(|&(_, c)| c > 100), "{replayed:?}");
    }

    /// A keep of the opponent (an Interpreter or Diplomat draw) spoils the window for the
    /// other seat, not for the keeper; a determinized world keeps its root's window and
    /// never extends it; the window is neither saved nor compared.
    #[test]
    fn unseen_moves_close_the_window_and_worlds_freeze_it() {
        let r = rules::<State>(&Params::default(), 2).unwrap();
        let mut rng = test_rng(3);
        let mut buf = Vec::new();
        let (mut spoiled, mut kept) = (0, 0);
        for _ in 0..40 {
            let mut s = State::new_game(r, &mut rng);
            while let Turn::Player(p) = s.turn() {
                let a = s.random_action(p, &mut buf, &mut rng);
                let keep = s.phase == Phase::KeepDrawn;
                s.apply_unchecked(p, a, &mut rng);
                // The keep ends the turn: its segment is now the previous one.
                let seg = &s.evidence.segments[0];
                if keep && s.phase == Phase::Move && seg.start.is_some() {
                    assert_eq!(seg.unseen & (1 << p), 0);
                    assert_ne!(seg.unseen & (1 << (1 - p)), 0);
                    let mut seen = 0;
                    s.replay_evidence(1 - p, &mut |_, _, _| seen += 1);
                    assert_eq!(seen, 0, "the other seat has no evidence left");
                    spoiled += 1;
                    let mut own = 0;
                    s.replay_evidence(p, &mut |_, _, _| own += 1);
                    kept += usize::from(own > 0);
                }
            }
        }
        assert!(spoiled > 5 && kept > 5, "{spoiled} {kept}");
        // A world is frozen: playing on adds nothing to its window.
        let mut s = State::new_game(r, &mut rng);
        while s.turns < 3 {
            let Turn::Player(p) = s.turn() else { break };
            let a = s.random_action(p, &mut buf, &mut rng);
            s.apply_unchecked(p, a, &mut rng);
        }
        let Turn::Player(p) = s.turn() else {
            panic!("over")
        };
        let mut w = s.determinize(p, &mut rng);
        let before = w.evidence.segments[1].len;
        let a = w.random_action(p, &mut buf, &mut rng);
        w.apply_unchecked(p, a, &mut rng);
        assert_eq!(w.evidence.segments[1].len, before);
        let json = serde_json::to_string(&s).unwrap();
        let back: State = serde_json::from_str(&json).unwrap();
        assert_eq!(back, s);
        assert!(back.evidence.segments.iter().all(|g| g.start.is_none()));
    }
}
