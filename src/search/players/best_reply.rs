//! Best-reply search (Schadd and Winands, 2011, "Best Reply Search for Multiplayer
//! Games", from its description): between two turns of the root's mover, only the one
//! opponent whose move is worst for it moves; the others pass. That makes a two-player
//! game of it, as paranoid search does, with a shallower tree: the root's mover (MAX)
//! against one layer (MIN) holding every opponent's moves. The passes are the game's
//! [`Game::null_move`], which in a game of more than two players passes the turn to the
//! next player; a game that cannot pass where the search needs it gets
//! [`GameError::NoPass`].

use crate::search::game::{Fork, Game, GameError, Move, ScoreView};
use crate::search::memory::room;
use crate::search::players::root_player::RootPlayer;

/// One opponent's move of a MIN layer: the passes before it, the move, the passes after
/// it (until the root's mover is to move again, or the game is over).
#[derive(Clone, Copy)]
struct Reply {
    before: u32,
    mv: Move,
}

/// A game of n players seen as best-reply search's two-player game: the root's mover
/// (MAX) against the best single reply of any other player (MIN), for
/// [`search`](crate::search::search) and [`search_parallel`](crate::search::search_parallel). Scores
/// are the root mover's. The result's best move is a move of the game; in its principal
/// variation, a MIN layer's entries are this view's numbers for the replies, not moves.
pub struct BestReply<G> {
    game: G,
    me: RootPlayer,
    /// The MIN layer's replies at each ply of the line being searched.
    replies: Vec<Vec<Reply>>,
    /// For each move played: a MIN reply with the passes played after it and the game's
    /// pass move, or `None` (MAX's move).
    played: Vec<Option<(Reply, u32, Move)>>,
    /// The first error met where the engine's calls cannot return one; the next
    /// `moves` reports it.
    error: Option<GameError>,
}

impl<G: Game> BestReply<G> {
    /// The best-reply view of `game`, for the player to move now.
    /// [`GameError::BadPlayer`] if the game has not 3 to
    /// [`MAX_PLAYERS`](crate::search::maxn::MAX_PLAYERS) players or its mover is out of range.
    /// A vector of scores (final or evaluated) outside the game's `player_bounds` stops
    /// the search with [`GameError::ScoreOutsideBounds`], as max^n does.
    pub fn new(mut game: G) -> Result<BestReply<G>, GameError> {
        let me = RootPlayer::of(&mut game)?;
        Ok(BestReply {
            game,
            me,
            replies: Vec::new(),
            played: Vec::new(),
            error: None,
        })
    }

    /// The player whose score this view maximises.
    pub fn root_player(&self) -> usize {
        self.me.root
    }

    /// The game, in its current position.
    pub fn game(&mut self) -> &mut G {
        &mut self.game
    }

    /// The game back.
    pub fn into_inner(self) -> G {
        self.game
    }

    fn over(&mut self) -> bool {
        self.me.outcome(&mut self.game).is_some()
    }

    /// Plays a pass and gives it; `None` (nothing played) where the game cannot pass.
    fn pass(&mut self) -> Option<Move> {
        let pass = self.game.null_move()?;
        self.game.play(pass);
        Some(pass)
    }

    /// Takes back `n` passes.
    fn unpass(&mut self, n: u32, pass: Move) {
        for _ in 0..n {
            self.game.undo(pass);
        }
    }

    /// The replies of a MIN layer: each opponent in turn, until the root's mover is to
    /// move again, lists its moves, the others before it having passed.
    fn list_replies(&mut self, out: &mut Vec<Reply>) -> Result<(), GameError> {
        let mut passes = 0;
        let mut pass = 0;
        let mut moves = Vec::new();
        let listed = loop {
            let p = self.game.player_to_move();
            if p >= self.me.players {
                break Err(GameError::BadPlayer);
            }
            if p == self.me.root || passes as usize >= self.me.players {
                break Ok(());
            }
            moves.clear();
            if let Err(e) = room(&mut moves, 64).and_then(|()| self.game.moves(&mut moves)) {
                break Err(e);
            }
            if let Err(e) = room(out, moves.len()) {
                break Err(e);
            }
            out.extend(moves.iter().map(|&mv| Reply { before: passes, mv }));
            match self.pass() {
                Some(p) => pass = p,
                None => break Err(GameError::NoPass),
            }
            passes += 1;
        };
        self.unpass(passes, pass);
        listed
    }
}

/// A copy for another thread: the game's own, at the root (the search forks there).
impl<G: Fork> Fork for BestReply<G> {
    fn fork(&self) -> Option<Self> {
        Some(BestReply {
            game: self.game.fork()?,
            me: self.me.clone(),
            replies: Vec::new(),
            played: Vec::new(),
            error: None,
        })
    }
}

impl<G: Game> Game for BestReply<G> {
    /// MAX's moves are the game's; a MIN layer's are numbered 0, 1, ... over every
    /// opponent's moves (the engine plays them by number).
    fn moves(&mut self, out: &mut Vec<Move>) -> Result<(), GameError> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        let p = self.game.player_to_move();
        if p >= self.me.players {
            return Err(GameError::BadPlayer);
        }
        if p == self.me.root {
            return self.game.moves(out);
        }
        let at = self.played.len();
        while self.replies.len() <= at {
            room(&mut self.replies, 1)?;
            self.replies.push(Vec::new());
        }
        let mut replies = std::mem::take(&mut self.replies[at]);
        replies.clear();
        let listed = self.list_replies(&mut replies);
        let n = replies.len();
        self.replies[at] = replies;
        listed?;
        room(out, n)?;
        out.extend(0..n as Move);
        Ok(())
    }

    fn play(&mut self, mv: Move) {
        if self.me.is_moving(&mut self.game) {
            self.game.play(mv);
            self.played.push(None);
            return;
        }
        let at = self.played.len();
        let reply = self.replies[at][mv as usize];
        // The passes are the game's one pass move, had where the first is played.
        let pass = self.game.null_move();
        for _ in 0..reply.before {
            self.game.play(pass.unwrap_or(0));
        }
        self.game.play(reply.mv);
        // The others pass until the root's mover is to move again.
        let mut after = 0;
        while !self.over()
            && !self.me.is_moving(&mut self.game)
            && (after as usize) < self.me.players
        {
            let Some(pass) = self.game.null_move() else {
                self.error = Some(GameError::NoPass);
                break;
            };
            self.game.play(pass);
            after += 1;
        }
        self.played.push(Some((reply, after, pass.unwrap_or(0))));
    }

    fn undo(&mut self, mv: Move) {
        match self.played.pop() {
            Some(None) | None => self.game.undo(mv),
            Some(Some((reply, after, pass))) => {
                self.unpass(after, pass);
                self.game.undo(reply.mv);
                self.unpass(reply.before, pass);
            }
        }
    }

    fn outcome(&mut self) -> Option<i32> {
        self.me.outcome(&mut self.game)
    }

    fn evaluate(&mut self) -> i32 {
        self.me.evaluate(&mut self.game)
    }

    fn hash(&mut self) -> Option<u64> {
        self.me.hash(&mut self.game, 0xC2B2_AE3D_27D4_EB4F)
    }

    fn max_to_move(&mut self) -> Option<bool> {
        Some(self.me.is_moving(&mut self.game))
    }

    fn bounds(&mut self) -> Option<(i32, i32)> {
        self.me.bounds()
    }

    fn score_view(&mut self) -> ScoreView {
        ScoreView::Max
    }

    fn broken(&mut self) -> Option<GameError> {
        self.me.broken()
    }
}
