//! The seed paper's AI (a plain minimax that searches the whole 3x3 tree on
//! every move, no memo, no pruning) against our solver, plus our 4x4 solve.
//!
//! Run: cargo bench --bench tictactoe -- --warm-up-time 1 --measurement-time 3

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use kibitz::games::tictactoe::solve::TicTacToeSolver;
use kibitz::games::tictactoe::Position;
use kibitz::solve::limits::SearchLimits;

/// The seed's Kotlin `Board`, `BoardEvaluator` and `GameAi`, translated
/// line by line: 9 cells, 0 empty, scores 100 / -100 / 0.
mod seed {
    pub const EMPTY_TOKEN: i32 = 0;
    const VAL_MAX: i32 = 100;
    const VAL_MIN: i32 = -100;
    const VAL_DRAW: i32 = 0;

    pub struct Board {
        pub data: [i32; 9],
    }

    impl Board {
        fn is_full(&self) -> bool {
            self.data.iter().all(|&cell| cell != EMPTY_TOKEN)
        }
    }

    #[derive(Clone, Copy, Debug)]
    pub struct Move {
        pub index: i32,
        pub score: i32,
    }

    fn evaluate(board: &Board, max_player: i32, min_player: i32) -> i32 {
        let b = &board.data;
        let verdict = |cell: i32| {
            if cell == max_player {
                Some(VAL_MAX)
            } else if cell == min_player {
                Some(VAL_MIN)
            } else {
                None
            }
        };
        // horizontal
        for i in (0..=6).step_by(3) {
            if b[i] == b[1 + i] && b[1 + i] == b[2 + i] {
                if let Some(v) = verdict(b[i]) {
                    return v;
                }
            }
        }
        // vertical
        for i in 0..=2 {
            if b[i] == b[3 + i] && b[3 + i] == b[6 + i] {
                if let Some(v) = verdict(b[i]) {
                    return v;
                }
            }
        }
        // diagonal
        if b[0] == b[4] && b[4] == b[8] {
            if let Some(v) = verdict(b[0]) {
                return v;
            }
        }
        if b[2] == b[4] && b[4] == b[6] {
            if let Some(v) = verdict(b[2]) {
                return v;
            }
        }
        VAL_DRAW
    }

    pub struct GameAi {
        pub max_player: i32,
        pub min_player: i32,
    }

    impl GameAi {
        pub fn find_best_move(&self, board: &mut Board, player: i32) -> Move {
            self.minimax(board, player)
        }

        fn minimax(&self, board: &mut Board, player: i32) -> Move {
            let score = evaluate(board, self.max_player, self.min_player);
            if board.is_full() || score == VAL_MAX || score == VAL_MIN {
                return Move { index: -1, score };
            }
            let mut moves = Vec::new();
            for i in 0..board.data.len() {
                if board.data[i] != EMPTY_TOKEN {
                    continue;
                }
                board.data[i] = player;
                let reply = if player == self.max_player {
                    self.minimax(board, self.min_player)
                } else {
                    self.minimax(board, self.max_player)
                };
                board.data[i] = EMPTY_TOKEN;
                moves.push(Move {
                    index: i as i32,
                    score: reply.score,
                });
            }
            // Kotlin's maxBy / minBy keep the first of equal elements.
            let best = if player == self.max_player {
                moves
                    .iter()
                    .copied()
                    .reduce(|a, b| if b.score > a.score { b } else { a })
            } else {
                moves
                    .iter()
                    .copied()
                    .reduce(|a, b| if b.score < a.score { b } else { a })
            };
            best.unwrap_or(Move { index: -1, score: 0 })
        }
    }
}

fn limits() -> SearchLimits {
    SearchLimits::within(Duration::from_secs(60))
}

fn empty_3x3(c: &mut Criterion) {
    let position = Position::new_game(3, 3, None).expect("3x3 is a valid size");
    let ai = seed::GameAi {
        max_player: 1,
        min_player: 2,
    };
    // Both agree: a draw, and the first cell among equals.
    let seed_move = ai.find_best_move(&mut seed::Board { data: [0; 9] }, 1);
    let ours = TicTacToeSolver::new(1 << 16).analyze(&position, &limits());
    assert_eq!((seed_move.index as usize, seed_move.score), (ours.best_move, 0));

    let mut group = c.benchmark_group("tictactoe_3x3_empty");
    group.bench_function("seed_plain_minimax", |b| {
        b.iter(|| {
            let mut board = seed::Board {
                data: [seed::EMPTY_TOKEN; 9],
            };
            black_box(ai.find_best_move(&mut board, 1))
        })
    });
    group.bench_function("ours_cold_memo", |b| {
        b.iter(|| {
            let solver = TicTacToeSolver::new(1 << 16);
            black_box(solver.analyze(&position, &limits()))
        })
    });
    let warm = TicTacToeSolver::new(1 << 16);
    warm.analyze(&position, &limits());
    group.bench_function("ours_warm_memo", |b| {
        b.iter(|| black_box(warm.analyze(&position, &limits())))
    });
    group.finish();
}

fn empty_4x4(c: &mut Criterion) {
    let position = Position::new_game(4, 4, None).expect("4x4 is a valid size");
    let mut group = c.benchmark_group("tictactoe_4x4_empty");
    group.sample_size(10);
    group.bench_function("ours_cold_memo", |b| {
        b.iter(|| {
            let solver = TicTacToeSolver::new(1 << 22);
            let analysis = solver.analyze(&position, &limits());
            assert!(analysis.solved);
            black_box(analysis)
        })
    });
    let warm = TicTacToeSolver::new(1 << 22);
    warm.analyze(&position, &limits());
    group.bench_function("ours_warm_memo", |b| {
        b.iter(|| black_box(warm.analyze(&position, &limits())))
    });
    group.finish();
}

criterion_group!(benches, empty_3x3, empty_4x4);
criterion_main!(benches);
