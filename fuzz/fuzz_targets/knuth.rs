//! Knuth's format: any bytes are read without a panic; a matrix read is
//! written back, and the text written reads back as the same matrix (the
//! same text when written again); a short search over it finds only
//! solutions the independent checker accepts.
#![no_main]

use dlx::{knuth, verify_cover, Budget, Solver};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(matrix) = knuth::read(data) else {
        return;
    };
    let mut text = Vec::new();
    knuth::write(&matrix, &mut text).expect("writing to memory");
    let again = knuth::read(&text[..]).expect("what knuth::write wrote reads back");
    assert_eq!(again.item_count(), matrix.item_count());
    assert_eq!(again.primary_count(), matrix.primary_count());
    assert_eq!(again.option_count(), matrix.option_count());
    let mut text2 = Vec::new();
    knuth::write(&again, &mut text2).expect("writing to memory");
    assert_eq!(text, text2, "the written text is a fixed point");
    let mut solver = Solver::new(&matrix);
    solver.set_budget(Budget {
        nodes: Some(2_000),
        updates: None,
    });
    for solution in solver.solutions().take(20) {
        verify_cover(&matrix, &solution).expect("a solution the checker accepts");
    }
});
