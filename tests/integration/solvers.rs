//! Solvers against known answers (DESIGN.md §5 item 6): CFR family on Kuhn poker (game
//! value -1/18), regret matching on matrix games with analytic solutions, and the tree
//! solvers on Goofspiel against an independent backward induction.

use tabletop_sim::GameState;
use tabletop_sim::analysis::efg::{GoofspielEfg, GoofspielUtility, KuhnEfg, build_tree};
use tabletop_sim::cli::solve::{SolveArgs, run as solve};
use tabletop_sim::game::{JointAction, ScriptedChance};
use tabletop_sim::games::goofspiel::{self, PointOrder};
use tabletop_sim::rng::test_rng;
use tabletop_sim::solvers::best_response::{best_response_value, evaluate};
use tabletop_sim::solvers::efg::Tree;
use tabletop_sim::solvers::matrix::{MatrixAlgo, MatrixGame};
use tabletop_sim::solvers::{Algo, DEFAULT_MAX_NODES, SolverError, run_curve};

const KUHN_VALUE: f64 = -1.0 / 18.0;

fn kuhn() -> Tree {
    Tree::build(&KuhnEfg, 1000).unwrap()
}

fn prob(tree: &Tree, policy: &[f64], key: &str, action: &str) -> f64 {
    let i = tree
        .infoset_by_key(key)
        .unwrap_or_else(|| panic!("no info set {key}"));
    let set = &tree.infosets[i];
    let a = set.actions.iter().position(|x| x == action).unwrap();
    policy[set.offset + a]
}

#[test]
fn kuhn_tree_shape() {
    let t = kuhn();
    // 1 chance root, 6 deals x 9 betting nodes (4 decision, 5 terminal).
    assert_eq!(t.nodes.len(), 1 + 6 * 9);
    assert_eq!(t.infosets.len(), 12);
    assert!(t.infoset_by_key("1pb").is_some());
}

#[test]
fn uniform_policy_exploitability_matches_openspiel() {
    // OpenSpiel's exploitability of the uniform random policy in Kuhn poker: 11/24.
    let t = kuhn();
    let e = evaluate(&t, &t.uniform_policy());
    assert!((e.exploitability - 11.0 / 24.0).abs() < 1e-9, "{e:?}");
}

#[test]
fn best_response_to_always_bet() {
    // Against seat 0 always betting, seat 1 calls with the King, folds the Jack, and with
    // the Queen calling wins 2 against the Jack and loses 2 to the King (EV 0) while
    // folding loses 1: call. Value for seat 1: K: +2 (both), Q: (2 - 2) / 2 = 0, J: -1.
    // Average over the three own cards: (2 + 0 - 1) / 3 = 1/3.
    let t = kuhn();
    let mut pol = t.uniform_policy();
    for set in &t.infosets {
        if set.player == 0 {
            pol[set.offset] = 0.0;
            pol[set.offset + 1] = 1.0;
        }
    }
    assert!((best_response_value(&t, &pol, 1) - 1.0 / 3.0).abs() < 1e-12);
}

/// Runs `algo` on Kuhn poker; checks the value and exploitability of the average strategy
/// and the equilibrium family of Kuhn (1950): seat 1 calls a bet with the King and folds the
/// Jack; seat 0 bets the King three times as often as it bluffs the Jack.
fn kuhn_converges(algo: Algo, iters: u64, seed: u64, tol: f64) {
    let t = kuhn();
    let (curve, pol) = run_curve(&t, algo, iters, iters, seed);
    let e = curve.last().unwrap().eval;
    assert!(
        e.exploitability < tol,
        "{algo}: exploitability {} after {iters}",
        e.exploitability
    );
    assert!(
        (e.value - KUHN_VALUE).abs() < tol,
        "{algo}: value {} after {iters}",
        e.value
    );
    let alpha = prob(&t, &pol, "0", "b");
    assert!(alpha <= 1.0 / 3.0 + 10.0 * tol, "{algo}: alpha {alpha}");
    assert!(
        (prob(&t, &pol, "2", "b") - 3.0 * alpha).abs() < 20.0 * tol,
        "{algo}"
    );
    assert!(prob(&t, &pol, "2b", "b") > 1.0 - 10.0 * tol, "{algo}");
    assert!(prob(&t, &pol, "0b", "p") > 1.0 - 10.0 * tol, "{algo}");
}

#[test]
fn cfr_plus_solves_kuhn() {
    // Issue requirement: value within 1e-3 of -1/18, exploitability below 1e-3 within
    // 10,000 iterations (measured: 8.7e-5 after 1,000).
    kuhn_converges(Algo::CfrPlus, 10_000, 0, 1e-3);
    let (curve, _) = run_curve(&kuhn(), Algo::CfrPlus, 10_000, 1_000, 0);
    assert!(curve.iter().all(|p| p.eval.exploitability < 1e-3));
}

#[test]
fn vanilla_cfr_solves_kuhn() {
    // Measured 2.3e-3 after 10,000 iterations.
    kuhn_converges(Algo::Cfr, 10_000, 0, 5e-3);
}

#[test]
fn external_sampling_mccfr_solves_kuhn() {
    // Measured 7.5e-3 after 10,000 iterations (seed 1).
    kuhn_converges(Algo::EsMccfr, 10_000, 1, 2e-2);
}

#[test]
fn outcome_sampling_mccfr_solves_kuhn() {
    // Measured 2.8e-2 after 10,000 and 5.3e-3 after 100,000 iterations (seed 1).
    let t = kuhn();
    let (curve, _) = run_curve(&t, Algo::OsMccfr, 50_000, 50_000, 1);
    let e = curve.last().unwrap().eval;
    assert!(e.exploitability < 3e-2, "{e:?}");
    assert!((e.value - KUHN_VALUE).abs() < 3e-2, "{e:?}");
}

#[test]
fn mccfr_is_reproducible_from_its_seed() {
    let t = kuhn();
    for algo in [Algo::EsMccfr, Algo::OsMccfr] {
        let a = run_curve(&t, algo, 500, 500, 9).1;
        let b = run_curve(&t, algo, 500, 500, 9).1;
        let c = run_curve(&t, algo, 500, 500, 10).1;
        assert_eq!(a, b);
        assert_ne!(a, c);
    }
}

#[test]
fn regret_matching_solves_rock_paper_scissors() {
    let rps = MatrixGame::new(3, 3, vec![0., -1., 1., 1., 0., -1., -1., 1., 0.]).unwrap();
    for algo in [MatrixAlgo::RegretMatching, MatrixAlgo::RegretMatchingPlus] {
        let s = rps.solve(algo, 10_000);
        for p in s.row.iter().chain(&s.col) {
            assert!((p - 1.0 / 3.0).abs() < 1e-3, "{algo:?}: {s:?}");
        }
        assert!(s.value.abs() < 1e-3 && s.exploitability < 1e-3, "{s:?}");
    }
    // A biased RPS: rock beating scissors pays 2. Rows/columns R, P, S; row payoffs
    //   R: [0, -1, 2]   P: [1, 0, -1]   S: [-1, 1, 0].
    // Row x = (r, p, s) makes the columns indifferent: p - s = s - r = 2r - p, so
    // x = (1/4, 5/12, 1/3); column y = (a, b, c) makes the rows indifferent:
    // 2c - b = a - c = b - a, so y = (1/3, 5/12, 1/4); value v = p - s = 1/12.
    let biased = MatrixGame::new(3, 3, vec![0., -1., 2., 1., 0., -1., -1., 1., 0.]).unwrap();
    let x = [1.0 / 4.0, 5.0 / 12.0, 1.0 / 3.0];
    let y = [1.0 / 3.0, 5.0 / 12.0, 1.0 / 4.0];
    let exact = biased.evaluate(&x, &y);
    assert!(exact.exploitability < 1e-12 && (exact.value - 1.0 / 12.0).abs() < 1e-12);
    for (algo, iters, tol) in [
        (MatrixAlgo::RegretMatching, 200_000, 5e-3),
        (MatrixAlgo::RegretMatchingPlus, 10_000, 1e-3),
    ] {
        let s = biased.solve(algo, iters);
        assert!((s.value - 1.0 / 12.0).abs() < tol, "{algo:?}: {s:?}");
        assert!(s.exploitability < tol, "{algo:?}: {s:?}");
        for (a, b) in s.row.iter().zip(&x).chain(s.col.iter().zip(&y)) {
            assert!((a - b).abs() < tol, "{algo:?}: {s:?}");
        }
    }
}

#[test]
fn regret_matching_solves_a_two_by_two_mixed_game() {
    // Row payoffs [[2, -1], [-1, 1]]. Row plays row 0 with p: column 0 pays 2p - (1 - p)
    // = 3p - 1, column 1 pays -p + (1 - p) = 1 - 2p; indifference 3p - 1 = 1 - 2p gives
    // p = 0.4. Symmetrically the column plays column 0 with q = 0.4, and the value is
    // 3 * 0.4 - 1 = 0.2. No pure equilibrium exists (every cell has a profitable deviation).
    let g = MatrixGame::new(2, 2, vec![2., -1., -1., 1.]).unwrap();
    // RM+ meets the 1e-3 bound; plain RM oscillates around the equilibrium and gets a
    // looser one (measured 2e-3 exploitability after 200,000 iterations).
    for (algo, iters, tol) in [
        (MatrixAlgo::RegretMatching, 200_000, 5e-3),
        (MatrixAlgo::RegretMatchingPlus, 10_000, 1e-3),
    ] {
        let s = g.solve(algo, iters);
        assert!((s.row[0] - 0.4).abs() < tol, "{algo:?}: {s:?}");
        assert!((s.col[0] - 0.4).abs() < tol, "{algo:?}: {s:?}");
        assert!((s.value - 0.2).abs() < tol, "{algo:?}: {s:?}");
        assert!(s.exploitability < tol, "{algo:?}: {s:?}");
    }
    assert!(MatrixGame::new(2, 2, vec![1.0]).is_err());
}

// ---------------------------------------------------------------------------------------
// Goofspiel: independent backward induction over the rules engine.

fn terminal_utility(s: &goofspiel::State, utility: GoofspielUtility) -> f64 {
    let sc = s.scores();
    let d = sc[0] - sc[1];
    match utility {
        GoofspielUtility::WinLoss => f64::from(i8::from(d > 0) - i8::from(d < 0)),
        // OpenSpiel's point_difference: own points minus the mean of both.
        GoofspielUtility::PointDifference => f64::from(sc[0]) - f64::from(sc[0] + sc[1]) / 2.0,
    }
}

/// Every outcome of the chance that `transition` draws, each with its probability: the
/// transition is run once to see how many outcomes its (single) pick has, then once per
/// scripted pick `0..n` (probability `1/n`).
fn chance_outcomes<T>(transition: impl Fn(&mut ScriptedChance) -> T) -> Vec<(T, f64)> {
    let mut probe = ScriptedChance::new(&[0]);
    let first = transition(&mut probe);
    match *probe.asked() {
        [] => vec![(first, 1.0)],
        [n] => (0..n)
            .map(|k| {
                (
                    transition(&mut ScriptedChance::new(&[k])),
                    1.0 / f64::from(n),
                )
            })
            .collect(),
        _ => panic!("goofspiel draws at most one point card per transition"),
    }
}

/// The value (seat 0) of perfect-information Goofspiel from `s` (a round start, point card
/// revealed): every round is a matrix game over the two hands whose entries are the values
/// after the joint bid (averaged over the next point card, enumerated through scripted
/// chance), solved exactly by [`exact_value`]. Only the `Game` API is used.
fn backward_induction(s: &goofspiel::State, utility: GoofspielUtility) -> f64 {
    if s.turn().is_terminal() {
        return terminal_utility(s, utility);
    }
    let (mut h0, mut h1) = (Vec::new(), Vec::new());
    s.legal_actions(0, &mut h0);
    s.legal_actions(1, &mut h1);
    let mut payoff = Vec::new();
    for &a in &h0 {
        for &b in &h1 {
            let joint: JointAction<goofspiel::Action> = [Some(a), Some(b), None, None];
            let next = chance_outcomes(|chance| {
                let mut c = *s;
                c.apply_joint(&joint, chance).unwrap();
                c
            });
            payoff.push(
                next.iter()
                    .map(|(c, p)| p * backward_induction(c, utility))
                    .sum(),
            );
        }
    }
    exact_value(h0.len(), h1.len(), &payoff)
}

/// Solves `a x = b` (k x k, row-major) by Gaussian elimination with partial pivoting;
/// `None` if singular.
fn solve_linear(mut a: Vec<f64>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let k = b.len();
    for col in 0..k {
        let piv =
            (col..k).max_by(|&i, &j| a[i * k + col].abs().total_cmp(&a[j * k + col].abs()))?;
        if a[piv * k + col].abs() < 1e-12 {
            return None;
        }
        for c in 0..k {
            a.swap(col * k + c, piv * k + c);
        }
        b.swap(col, piv);
        for r in 0..k {
            if r != col {
                let f = a[r * k + col] / a[col * k + col];
                for c in 0..k {
                    a[r * k + c] -= f * a[col * k + c];
                }
                b[r] -= f * b[col];
            }
        }
    }
    Some((0..k).map(|i| b[i] / a[i * k + i]).collect())
}

/// The exact value of a small zero-sum matrix game (row player maximises), independent of
/// the crate's solvers: by Shapley & Snow (1950) some optimal strategy pair is supported
/// on a square submatrix S x T on which both players equalise, so every square submatrix
/// is tried: solve `x^T A_ST = v 1`, `A_ST y = v 1`, both summing to 1, and accept when
/// x, y >= 0 and neither player can gain outside the supports.
fn exact_value(m: usize, n: usize, a: &[f64]) -> f64 {
    let subsets = |len: usize| -> Vec<Vec<usize>> {
        (1u32..1 << len)
            .map(|mask| (0..len).filter(|&i| mask & (1 << i) != 0).collect())
            .collect()
    };
    for rows in subsets(m) {
        for cols in subsets(n).into_iter().filter(|c| c.len() == rows.len()) {
            let k = rows.len();
            // Unknowns (x_S, v): for each column j in T, sum_i x_i a_ij - v = 0; sum x = 1.
            let mut mx = vec![0.0; (k + 1) * (k + 1)];
            let mut my = vec![0.0; (k + 1) * (k + 1)];
            for (e, &j) in cols.iter().enumerate() {
                for (f, &i) in rows.iter().enumerate() {
                    mx[e * (k + 1) + f] = a[i * n + j];
                    my[f * (k + 1) + e] = a[i * n + j];
                }
                mx[e * (k + 1) + k] = -1.0;
                my[e * (k + 1) + k] = -1.0;
            }
            for f in 0..k {
                mx[k * (k + 1) + f] = 1.0;
                my[k * (k + 1) + f] = 1.0;
            }
            let mut rhs = vec![0.0; k + 1];
            rhs[k] = 1.0;
            let (Some(xs), Some(ys)) = (solve_linear(mx, rhs.clone()), solve_linear(my, rhs))
            else {
                continue;
            };
            let v = xs[k];
            if xs[..k].iter().chain(&ys[..k]).any(|&p| p < -1e-12) || (ys[k] - v).abs() > 1e-9 {
                continue;
            }
            let mut x = vec![0.0; m];
            let mut y = vec![0.0; n];
            rows.iter().zip(&xs).for_each(|(&i, &p)| x[i] = p);
            cols.iter().zip(&ys).for_each(|(&j, &p)| y[j] = p);
            let col_ok =
                (0..n).all(|j| (0..m).map(|i| x[i] * a[i * n + j]).sum::<f64>() >= v - 1e-9);
            let row_ok =
                (0..m).all(|i| (0..n).map(|j| y[j] * a[i * n + j]).sum::<f64>() <= v + 1e-9);
            if col_ok && row_ok {
                return v;
            }
        }
    }
    panic!("no kernel found (Shapley-Snow guarantees one)");
}

#[test]
fn exact_matrix_values() {
    // Checks of the independent solver itself: matching pennies variant (0.2), biased RPS
    // (1/12), a game with a saddle point (value 2), a dominated row.
    assert!((exact_value(2, 2, &[2., -1., -1., 1.]) - 0.2).abs() < 1e-12);
    let rps = [0., -1., 2., 1., 0., -1., -1., 1., 0.];
    assert!((exact_value(3, 3, &rps) - 1.0 / 12.0).abs() < 1e-12);
    assert!((exact_value(2, 2, &[2., 3., 1., 4.]) - 2.0).abs() < 1e-12);
    assert!((exact_value(3, 2, &[1., -1., -1., 1., -5., -5.]) - 0.0).abs() < 1e-12);
}

fn goofspiel_params(n: usize, order: PointOrder) -> goofspiel::Params {
    goofspiel::Params {
        num_cards: n,
        imp_info: false,
        order,
        ..goofspiel::Params::default()
    }
}

#[test]
fn goofspiel_3_cards_matches_backward_induction() {
    for order in [PointOrder::Descending, PointOrder::Random] {
        for utility in [GoofspielUtility::WinLoss, GoofspielUtility::PointDifference] {
            let params = goofspiel_params(3, order);
            // The whole game is symmetric (value 0), so also solve the asymmetric
            // subgames after every first-round joint bid, for every first point card
            // (under random order the second point card of a subgame is the one the rules
            // engine sampled).
            let mut roots = Vec::new();
            let rules = tabletop_sim::game::rules(&params, 2).unwrap();
            let firsts = chance_outcomes(|chance| goofspiel::State::new_game(rules, chance));
            for (s, _) in firsts {
                roots.push(s);
                for a in 1..=3u8 {
                    for b in 1..=3u8 {
                        let mut c = s;
                        let joint: JointAction<goofspiel::Action> = [
                            Some(goofspiel::Action(a)),
                            Some(goofspiel::Action(b)),
                            None,
                            None,
                        ];
                        c.apply_joint(&joint, &mut test_rng(u64::from(a * 3 + b)))
                            .unwrap();
                        roots.push(c);
                    }
                }
            }
            let mut nonzero = 0;
            for root in roots {
                let expected = backward_induction(&root, utility);
                if expected.abs() > 1e-3 {
                    nonzero += 1;
                }
                let tree = Tree::build(&GoofspielEfg::from_state(root, utility), 100_000).unwrap();
                let (curve, _) = run_curve(&tree, Algo::CfrPlus, 10_000, 10_000, 0);
                let e = curve.last().unwrap().eval;
                assert!(e.exploitability < 1e-3, "{order} {utility}: {e:?}\n{root}");
                assert!(
                    (e.value - expected).abs() < 1e-3,
                    "{order} {utility}: solver {} vs backward induction {expected}\n{root}",
                    e.value
                );
            }
            assert!(
                nonzero >= 6,
                "{order} {utility}: too few asymmetric subgames"
            );
        }
    }
    // The full game from before the first point card: value 0 by symmetry, both ways.
    let tree = build_tree("goofspiel", &["num_cards=3", "order=random"], 100_000).unwrap();
    let (curve, _) = run_curve(&tree, Algo::CfrPlus, 2_000, 2_000, 0);
    assert!(curve[0].eval.value.abs() < 1e-3 && curve[0].eval.exploitability < 1e-4);
}

#[test]
fn goofspiel_imp_info_solves() {
    // Imperfect information keeps a well-formed tree (checked by Tree::build: one player
    // and one action list per information set) and the solvers converge on it.
    let tree = build_tree(
        "goofspiel",
        &["num_cards=4", "imp_info=true", "order=descending"],
        1_000_000,
    )
    .unwrap();
    let perfect = build_tree("goofspiel", &["num_cards=4", "order=descending"], 1_000_000).unwrap();
    assert!(tree.infosets.len() < perfect.infosets.len());
    let (curve, _) = run_curve(&tree, Algo::CfrPlus, 1_000, 1_000, 0);
    let e = curve.last().unwrap().eval;
    assert!(e.exploitability < 1e-3 && e.value.abs() < 1e-3, "{e:?}");
}

// ---------------------------------------------------------------------------------------
// `sim solve`.

fn args(game: &str, algo: &str) -> SolveArgs {
    SolveArgs {
        game: game.into(),
        variant: Vec::new(),
        algo: algo.into(),
        iters: 200,
        every: 50,
        seed: 3,
        out: Some(std::env::temp_dir().join(format!(
            "tabletop-sim-solve-{game}-{algo}-{}",
            std::process::id()
        ))),
        max_nodes: DEFAULT_MAX_NODES,
        overwrite: false,
    }
}

/// `sim solve` with its report discarded; the error without its exit code.
fn run(a: &SolveArgs) -> anyhow::Result<()> {
    solve(a, &mut std::io::sink()).map_err(|e| e.error)
}

#[test]
fn solve_refuses_an_unwritable_directory_before_solving() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    let mut a = args("kuhn", "cfr+");
    a.out = Some(file.join("sub"));
    let mut report = Vec::new();
    let e = solve(&a, &mut report).unwrap_err();
    assert_eq!(e.code, 2, "bad input: {}", e.error);
    assert!(e.error.to_string().contains("a-file/sub"), "{}", e.error);
    assert!(report.is_empty(), "nothing solved or printed");
}

#[test]
fn solve_writes_strategy_and_curve() {
    let dir = tempfile::tempdir().unwrap();
    let mut a = args("kuhn", "cfr+");
    a.out = Some(dir.path().join("kuhn"));
    run(&a).unwrap();
    let strategy = std::fs::read_to_string(dir.path().join("kuhn/strategy.csv")).unwrap();
    let mut lines = strategy.lines();
    assert_eq!(lines.next(), Some("info_set,player,action,probability"));
    assert_eq!(lines.count(), 24, "12 information sets x 2 actions");
    assert!(strategy.contains("\n1pb,0,b,"), "{strategy}");
    let curve = std::fs::read_to_string(dir.path().join("kuhn/curve.csv")).unwrap();
    assert_eq!(curve.lines().count(), 1 + 4);
    assert!(curve.starts_with("iterations,exploitability,nash_conv,value"));
    let mut g = args("goofspiel", "es-mccfr");
    g.variant = vec!["num_cards=3".into(), "utility=points".into()];
    g.out = Some(dir.path().join("g"));
    run(&g).unwrap();
}

#[test]
fn solve_rejects_bad_input_naming_valid_choices() {
    let err = run(&args("kuhn", "dcfr")).unwrap_err();
    assert!(
        err.downcast_ref::<SolverError>().is_some(),
        "bad input is typed: {err}"
    );
    let e = err.to_string();
    assert!(
        e.contains("dcfr") && e.contains("cfr+") && e.contains("os-mccfr"),
        "{e}"
    );
    let e = run(&args("chess", "cfr")).unwrap_err().to_string();
    assert!(
        e.contains("chess") && e.contains("kuhn") && e.contains("goofspiel"),
        "{e}"
    );
    let mut a = args("goofspiel", "cfr");
    a.variant = vec!["cards=3".into()];
    let e = run(&a).unwrap_err().to_string();
    assert!(e.contains("cards") && e.contains("num_cards"), "{e}");
    a.variant = vec!["num_cards=40".into()];
    let e = run(&a).unwrap_err().to_string();
    assert!(e.contains("40") && e.contains("1..=16"), "{e}");
    a.variant = vec!["utility=chips".into()];
    let e = run(&a).unwrap_err().to_string();
    assert!(e.contains("chips") && e.contains("win-loss|points"), "{e}");
    a.variant = vec!["num_cards=8".into()];
    a.max_nodes = 10_000;
    let e = run(&a).unwrap_err().to_string();
    assert!(e.contains("10000"), "{e}");
    let mut z = args("kuhn", "cfr");
    z.iters = 0;
    let err = run(&z).unwrap_err();
    assert!(err.to_string().contains("--iters") && err.downcast_ref::<SolverError>().is_some());
}

#[test]
fn regret_matching_plus_agrees_with_the_exact_lp_solver() {
    // Fixed-seed random games up to 4 x 5: RM+ average strategies reach the LP value.
    use rand::RngExt;
    use tabletop_sim::solvers::lp::solve_zero_sum;
    let mut r = test_rng(42);
    for _ in 0..20 {
        let (m, n) = (r.random_range(1..=4usize), r.random_range(1..=5usize));
        let a: Vec<Vec<f64>> = (0..m)
            .map(|_| (0..n).map(|_| r.random_range(-3.0..3.0)).collect())
            .collect();
        let exact = solve_zero_sum(&a);
        assert!((exact_value(m, n, &a.concat()) - exact.value).abs() < 1e-9);
        let s = MatrixGame::new(m, n, a.concat())
            .unwrap()
            .solve(MatrixAlgo::RegretMatchingPlus, 20_000);
        assert!(
            s.lower <= exact.value + 1e-9 && exact.value <= s.upper + 1e-9,
            "{s:?} vs {exact:?}"
        );
        assert!((s.value - exact.value).abs() < 1e-3, "{s:?} vs {exact:?}");
    }
}
