//! `sim serve`: a local web app to play every registered game against the agents in a
//! browser (axum on tokio). The page and its script are embedded in the binary
//! (`include_str!`), so the app needs no network and makes no request beyond the server it
//! came from (its Content-Security-Policy says so to the browser).
//!
//! # HTTP interface (JSON)
//!
//! | method, path | body / query | answer |
//! |---|---|---|
//! | `GET /` | | the page |
//! | `GET /api/games` | | every game: name, description, player range, the default AI and the agent kinds |
//! | `POST /api/games` | `{game, players?, seats: ["human", "random", ...], seed?, variant?: ["key=value"]}` | `{id}` |
//! | `GET /api/games/{id}?seat=S` | | seat S's view ([`session::Session::view`]) |
//! | `POST /api/games/{id}/act` | `{seat, action}` (an action id) | seat's view after the AI replied |
//! | `POST /api/games/{id}/undo` | `{seat}` | seat's view |
//! | `GET /api/games/{id}/position` | | the position, saved-position format ([`crate::position`]) |
//! | `GET /api/games/{id}/timing` | | the AI's decision times in ms: wall clock (`ai_millis`) and the deciding thread's CPU time (`ai_cpu_millis`) |
//! | `POST /api/load` | `{text, seats?, seed?}` | `{id}`: a game continuing that position |
//! | `POST /api/games/{id}/analyze` | `{seat, agent?}` | an agent's statistics for the seat's decision, from its view (`analyze_json`), and the `sim analyze` command that prints the same |
//! | `GET /api/results` | | the result folders under the results root ([`results::Results::list`]) |
//! | `GET /api/results/folder` | `?dir=D&offset=&limit=` | folder D: files, settings, games of `games.csv`, failed games of `errors.csv` |
//! | `GET /results/file` | `?dir=D&name=F` | a report, table or settings file of folder D |
//! | `POST /api/replays` | `{dir, index}` | `{id, steps}`: game `index` of folder D replayed ([`replay`]) |
//! | `GET /api/replays/{id}` | `?step=K&seat=S` | step K from seat S (omit `seat` for the omniscient view) |
//! | `GET /api/replays/{id}/analyze` | `?step=K` | the acting agents' search statistics for the ply after step K |
//! | `GET /api/replays/{id}/position` | `?step=K` | the state at step K, saved-position format |
//!
//! Bad requests answer 400 with `{"error": "..."}` naming the bad value; an unknown game id
//! answers 404.

pub mod board;
pub mod replay;
pub mod results;
pub mod session;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use axum::extract::{Path, Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use replay::{GameReplay, Replay};
use results::{Results, ResultsError};
use session::{GameSession, HUMAN, Session, SessionError};

/// The page (HTML), embedded.
pub const INDEX_HTML: &str = include_str!("assets/index.html");
/// The page's script, embedded.
pub const APP_JS: &str = include_str!("assets/app.js");
/// The page's style sheet, embedded.
pub const APP_CSS: &str = include_str!("assets/app.css");

/// What the page may load: only this server's own script, style sheet and API.
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; \
                   img-src 'self' data:; base-uri 'none'; form-action 'none'";

/// What a report page may load: its own inline styles and embedded images, nothing else
/// (reports are self-contained), and no script.
const REPORT_CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox";

type Shared = Arc<Mutex<Box<dyn Session>>>;
type SharedReplay = Arc<Mutex<Box<dyn Replay>>>;

/// The server's state: the sessions and replays by id, and the results root.
pub struct App {
    sessions: Mutex<HashMap<u64, Shared>>,
    replays: Mutex<HashMap<u64, SharedReplay>>,
    next: AtomicU64,
    results: Results,
}

impl App {
    /// An app reading result folders under `results`.
    pub fn new(results: Results) -> Self {
        App {
            sessions: Mutex::default(),
            replays: Mutex::default(),
            next: AtomicU64::new(0),
            results,
        }
    }

    fn insert_replay(&self, replay: Box<dyn Replay>) -> u64 {
        let id = self.next.fetch_add(1, Ordering::Relaxed) + 1;
        self.replays
            .lock()
            .expect("no panic holds the lock")
            .insert(id, Arc::new(Mutex::new(replay)));
        id
    }

    fn replay(&self, id: u64) -> Result<SharedReplay, ApiError> {
        self.replays
            .lock()
            .expect("no panic holds the lock")
            .get(&id)
            .cloned()
            .ok_or(ApiError::NotFound(id))
    }

    fn insert(&self, session: Box<dyn Session>) -> u64 {
        let id = self.next.fetch_add(1, Ordering::Relaxed) + 1;
        self.sessions
            .lock()
            .expect("no panic holds the lock")
            .insert(id, Arc::new(Mutex::new(session)));
        id
    }

    fn get(&self, id: u64) -> Result<Shared, ApiError> {
        self.sessions
            .lock()
            .expect("no panic holds the lock")
            .get(&id)
            .cloned()
            .ok_or(ApiError::NotFound(id))
    }
}

/// A refused request.
#[derive(Debug)]
pub enum ApiError {
    /// Bad input (400), with the message naming the bad value.
    Bad(String),
    /// No game with this id (404).
    NotFound(u64),
}

impl From<SessionError> for ApiError {
    fn from(e: SessionError) -> Self {
        ApiError::Bad(e.to_string())
    }
}

impl From<ResultsError> for ApiError {
    fn from(e: ResultsError) -> Self {
        ApiError::Bad(e.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (code, message) = match self {
            ApiError::Bad(m) => (StatusCode::BAD_REQUEST, m),
            ApiError::NotFound(id) => (StatusCode::NOT_FOUND, format!("no game with id {id}")),
        };
        (code, Json(json!({ "error": message }))).into_response()
    }
}

/// A new game, as the page asks for it.
#[derive(Debug, Deserialize)]
pub struct NewGame {
    /// The game's registry name.
    pub game: String,
    /// Seats [default: as many as `seats` names, at least the game's default].
    pub players: Option<usize>,
    /// One spec per seat: `human` or an agent spec; missing seats take the last AI named
    /// (or the default AI).
    #[serde(default)]
    pub seats: Vec<String>,
    /// Master seed [default: 0].
    #[serde(default)]
    pub seed: u64,
    /// Rule settings `key=value`.
    #[serde(default)]
    pub variant: Vec<String>,
}

/// A saved position to continue.
#[derive(Debug, Deserialize)]
pub struct LoadGame {
    /// The file's text (saved-position format).
    pub text: String,
    /// Seats, as for [`NewGame::seats`] [default: seat 0 human, the rest the default AI].
    #[serde(default)]
    pub seats: Vec<String>,
    /// Seed of the fresh streams when the position has none saved [default: 0].
    #[serde(default)]
    pub seed: u64,
}

/// Starts a session of the game named in `req`.
///
/// # Errors
/// [`ApiError::Bad`] naming an unknown game or a bad setup.
pub fn new_session(req: &NewGame) -> Result<Box<dyn Session>, ApiError> {
    crate::dispatch_game!(req.game.as_str(), G => {
        GameSession::<G>::new(req.players, &req.variant, &req.seats, req.seed)
            .map(|s| Box::new(s) as Box<dyn Session>)
            .map_err(ApiError::from)
    })
    .map_err(|e| ApiError::Bad(e.to_string()))?
}

/// Starts a session continuing the position in `req`.
///
/// # Errors
/// [`ApiError::Bad`] for text that is not a saved position of a registered game, or a bad
/// setup.
pub fn load_session(req: &LoadGame) -> Result<Box<dyn Session>, ApiError> {
    let game = crate::position::game_of(&req.text).map_err(|e| ApiError::Bad(e.to_string()))?;
    let seats = if req.seats.is_empty() {
        vec![HUMAN.to_string()]
    } else {
        req.seats.clone()
    };
    crate::dispatch_game!(game.as_str(), G => {
        let pos = crate::position::Position::<G>::from_json(&req.text)
            .map_err(|e| ApiError::Bad(e.to_string()))?;
        GameSession::<G>::from_position(pos, &seats, req.seed)
            .map(|s| Box::new(s) as Box<dyn Session>)
            .map_err(ApiError::from)
    })
    .map_err(|e| ApiError::Bad(e.to_string()))?
}

/// The games list the page offers.
fn games_json() -> Value {
    let agents: Vec<&str> = crate::agents::kinds()
        .iter()
        .map(|k| k.name)
        .filter(|k| !matches!(*k, "human" | "ext"))
        .collect();
    let games: Vec<Value> = crate::games::all()
        .iter()
        .map(|g| {
            json!({
                "name": g.name,
                "description": g.description,
                "players": [g.players.0, g.players.1],
                "default_players": g.default_players,
                "default_ai": crate::dispatch_game!(g.name, G => session::default_ai::<G>()).unwrap_or("mcts"),
            })
        })
        .collect();
    json!({ "games": games, "agents": agents, "human": HUMAN })
}

/// The router of the app over `app`.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(index))
        .route(
            "/app.js",
            get(|| async { asset("text/javascript; charset=utf-8", APP_JS) }),
        )
        .route(
            "/app.css",
            get(|| async { asset("text/css; charset=utf-8", APP_CSS) }),
        )
        .route(
            "/api/games",
            get(|| async { Json(games_json()) }).post(create),
        )
        .route("/api/games/{id}", get(view))
        .route("/api/games/{id}/act", post(act))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/position", get(position))
        .route("/api/games/{id}/timing", get(timing))
        .route("/api/load", post(load))
        .route("/api/games/{id}/analyze", post(analyze))
        .route("/api/results", get(results_list))
        .route("/api/results/folder", get(results_folder))
        .route("/results/file", get(results_file))
        .route("/api/replays", post(replay_open))
        .route("/api/replays/{id}", get(replay_view))
        .route("/api/replays/{id}/analyze", get(replay_analyze))
        .route("/api/replays/{id}/position", get(replay_position))
        .with_state(app)
}

fn asset(kind: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

async fn index() -> Response {
    let mut r = asset("text/html; charset=utf-8", INDEX_HTML);
    r.headers_mut().insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    r
}

/// Runs blocking work (an AI's search) off the async workers.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ApiError::Bad(format!("the request failed: {e}")))?
}

async fn create(
    State(app): State<Arc<App>>,
    Json(req): Json<NewGame>,
) -> Result<Json<Value>, ApiError> {
    let session = blocking(move || new_session(&req)).await?;
    Ok(Json(json!({ "id": app.insert(session) })))
}

async fn load(
    State(app): State<Arc<App>>,
    Json(req): Json<LoadGame>,
) -> Result<Json<Value>, ApiError> {
    let session = blocking(move || load_session(&req)).await?;
    Ok(Json(json!({ "id": app.insert(session) })))
}

/// `?seat=S`.
#[derive(Debug, Deserialize)]
struct SeatQuery {
    seat: usize,
}

/// A human seat's move.
#[derive(Debug, Deserialize)]
struct ActBody {
    seat: usize,
    action: usize,
}

/// A seat's undo.
#[derive(Debug, Deserialize)]
struct UndoBody {
    seat: usize,
}

fn lock(s: &Shared) -> std::sync::MutexGuard<'_, Box<dyn Session>> {
    // A panic inside a session is caught there; a poisoned lock still holds a whole state.
    s.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

async fn view(
    State(app): State<Arc<App>>,
    Path(id): Path<u64>,
    Query(q): Query<SeatQuery>,
) -> Result<Json<Value>, ApiError> {
    let s = app.get(id)?;
    let v = lock(&s).view(q.seat)?;
    Ok(Json(v))
}

async fn act(
    State(app): State<Arc<App>>,
    Path(id): Path<u64>,
    Json(b): Json<ActBody>,
) -> Result<Json<Value>, ApiError> {
    let s = app.get(id)?;
    let v = blocking(move || {
        let mut g = lock(&s);
        g.act(b.seat, b.action)?;
        Ok(g.view(b.seat)?)
    })
    .await?;
    Ok(Json(v))
}

async fn undo(
    State(app): State<Arc<App>>,
    Path(id): Path<u64>,
    Json(b): Json<UndoBody>,
) -> Result<Json<Value>, ApiError> {
    let s = app.get(id)?;
    let mut g = lock(&s);
    g.undo(b.seat)?;
    Ok(Json(g.view(b.seat)?))
}

async fn position(State(app): State<Arc<App>>, Path(id): Path<u64>) -> Result<Response, ApiError> {
    let s = app.get(id)?;
    let g = lock(&s);
    let name = format!("attachment; filename=\"{}-position.json\"", g.game());
    let mut r = ([(header::CONTENT_TYPE, "application/json")], g.position()).into_response();
    if let Ok(v) = HeaderValue::from_str(&name) {
        r.headers_mut().insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(r)
}

async fn timing(State(app): State<Arc<App>>, Path(id): Path<u64>) -> Result<Json<Value>, ApiError> {
    let s = app.get(id)?;
    let g = lock(&s);
    Ok(Json(
        json!({ "ai_millis": g.ai_millis(), "ai_cpu_millis": g.ai_cpu_millis() }),
    ))
}

/// A request for an agent's statistics at a human seat's decision.
#[derive(Debug, Deserialize)]
struct AnalyzeBody {
    seat: usize,
    /// The agent spec [default: the page's default AI].
    agent: Option<String>,
}

async fn analyze(
    State(app): State<Arc<App>>,
    Path(id): Path<u64>,
    Json(b): Json<AnalyzeBody>,
) -> Result<Json<Value>, ApiError> {
    let s = app.get(id)?;
    let v = blocking(move || Ok(lock(&s).analyze(b.seat, b.agent.as_deref())?)).await?;
    Ok(Json(v))
}

async fn results_list(State(app): State<Arc<App>>) -> Json<Value> {
    Json(app.results.list())
}

/// `?dir=D&offset=&limit=`.
#[derive(Debug, Deserialize)]
struct FolderQuery {
    #[serde(default)]
    dir: String,
    #[serde(default)]
    offset: usize,
    limit: Option<usize>,
}

async fn results_folder(
    State(app): State<Arc<App>>,
    Query(q): Query<FolderQuery>,
) -> Result<Json<Value>, ApiError> {
    let limit = q.limit.unwrap_or(100);
    Ok(Json(app.results.folder(&q.dir, q.offset, limit)?))
}

/// `?dir=D&name=F`.
#[derive(Debug, Deserialize)]
struct FileQuery {
    #[serde(default)]
    dir: String,
    name: String,
}

async fn results_file(
    State(app): State<Arc<App>>,
    Query(q): Query<FileQuery>,
) -> Result<Response, ApiError> {
    let (kind, bytes) = app.results.file(&q.dir, &q.name)?;
    let mut r = ([(header::CONTENT_TYPE, kind)], bytes).into_response();
    r.headers_mut().insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(REPORT_CSP),
    );
    Ok(r)
}

/// Which game of which folder to replay.
#[derive(Debug, Deserialize)]
struct ReplayBody {
    dir: String,
    index: u64,
}

/// Opens game `index` of folder `dir` of `results` as a replay.
///
/// # Errors
/// [`ApiError::Bad`] for a bad folder, a folder without tournament settings, an unknown
/// game or a bad index.
pub fn open_replay(results: &Results, dir: &str, index: u64) -> Result<Box<dyn Replay>, ApiError> {
    let t = results.config(dir)?;
    crate::dispatch_game!(t.game.as_str(), G => {
        GameReplay::<G>::new(&t, dir, index)
            .map(|r| Box::new(r) as Box<dyn Replay>)
            .map_err(ApiError::Bad)
    })
    .map_err(|e| ApiError::Bad(format!("{dir}/config.toml: {e}")))?
}

async fn replay_open(
    State(app): State<Arc<App>>,
    Json(b): Json<ReplayBody>,
) -> Result<Json<Value>, ApiError> {
    let a = app.clone();
    let replay = blocking(move || open_replay(&a.results, &b.dir, b.index)).await?;
    let steps = replay.steps();
    Ok(Json(
        json!({ "id": app.insert_replay(replay), "steps": steps }),
    ))
}

/// `?step=K&seat=S`.
#[derive(Debug, Deserialize)]
struct StepQuery {
    #[serde(default)]
    step: usize,
    seat: Option<usize>,
}

fn lock_replay(r: &SharedReplay) -> std::sync::MutexGuard<'_, Box<dyn Replay>> {
    r.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

async fn replay_view(
    State(app): State<Arc<App>>,
    Path(id): Path<u64>,
    Query(q): Query<StepQuery>,
) -> Result<Json<Value>, ApiError> {
    let r = app.replay(id)?;
    let v = lock_replay(&r)
        .view(q.step, q.seat)
        .map_err(ApiError::Bad)?;
    Ok(Json(v))
}

async fn replay_analyze(
    State(app): State<Arc<App>>,
    Path(id): Path<u64>,
    Query(q): Query<StepQuery>,
) -> Result<Json<Value>, ApiError> {
    let r = app.replay(id)?;
    let v = blocking(move || lock_replay(&r).analyze(q.step).map_err(ApiError::Bad)).await?;
    Ok(Json(v))
}

async fn replay_position(
    State(app): State<Arc<App>>,
    Path(id): Path<u64>,
    Query(q): Query<StepQuery>,
) -> Result<Response, ApiError> {
    let r = app.replay(id)?;
    let g = lock_replay(&r);
    let name = format!(
        "attachment; filename=\"{}-step{}-position.json\"",
        g.game(),
        q.step
    );
    let mut resp = (
        [(header::CONTENT_TYPE, "application/json")],
        g.position(q.step),
    )
        .into_response();
    if let Ok(v) = HeaderValue::from_str(&name) {
        resp.headers_mut().insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(resp)
}

/// Serves the app on `addr` until the process is stopped, after calling `ready` with the
/// address actually bound (port 0 picks a free port); result folders are read under
/// `results`.
///
/// # Errors
/// The address cannot be bound (in use, not local), or the server fails.
pub fn serve(
    addr: SocketAddr,
    results: Results,
    ready: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_io()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        ready(listener.local_addr()?);
        axum::serve(listener, router(Arc::new(App::new(results)))).await
    })
}
