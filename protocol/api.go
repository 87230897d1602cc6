package protocol

import "github.com/tileproof/tileproof/engine"

// StateFormat names the layout of the state objects of the HTTP API.
const StateFormat = "tileproof/1"

// ServerSeed is the feature of a game whose server draws the seed when
// init names none (a signed tileproof serve): the seed stays sealed until
// the game is over, its commitment given from the start (docs/api.md).
// It is a feature of the HTTP API alone, not one a case requires.
const ServerSeed = "server-seed"

// GameList is the answer to GET /api/games: the games served, one a
// profile, and the server that serves them (optional: tileproof serve
// names itself).
type GameList struct {
	Games  []string    `json:"games"`
	Server *ServerInfo `json:"server,omitempty"`
}

// ServerInfo names a server's software and the version of the API it
// serves.
type ServerInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// GameState is the state a client carries from one call to the next. On
// a server that signs, the generator is not in the clear: Seal holds it,
// sealed with the rest (docs/api.md, "Signed states").
type GameState struct {
	Format      string     `json:"format"`
	Game        string     `json:"game"`
	Rules       int        `json:"rules"`
	Board       [][]uint64 `json:"board"`
	Score       uint64     `json:"score"`
	Moves       int        `json:"moves"`
	Won         bool       `json:"won"`
	KeepPlaying bool       `json:"keepPlaying"`
	Result      string     `json:"result"`
	RNG         string     `json:"rng,omitempty"`  // the tp1 generator's state, 16 hex digits (unsigned servers)
	Prev        *GameState `json:"prev,omitempty"` // the state an undo returns to
	Seal        string     `json:"seal,omitempty"` // the generator and the server's seal of the state, when it signs
}

// ActionBody is a request's action: {"type": "move", "direction": "left"}, or
// undo, end-run, keep-playing, or observe (which changes nothing and
// answers the state with its observation and legal actions). Spawn forces
// the next tile, where the server allows it.
type ActionBody struct {
	Type      string        `json:"type"`
	Direction string        `json:"direction,omitempty"`
	Spawn     *engine.Spawn `json:"spawn,omitempty"`
}

// ActionRequest is the body of POST /api/games/{game}/action.
type ActionRequest struct {
	State  *GameState  `json:"state"`
	Action *ActionBody `json:"action"`
}

// Observation is what the player sees.
type Observation struct {
	Board   [][]uint64 `json:"board"`
	Score   uint64     `json:"score"`
	Moves   int        `json:"moves"`
	MaxTile uint64     `json:"maxTile"`
	Won     bool       `json:"won"`
	Over    bool       `json:"over"`
	Result  string     `json:"result"`
}

// Observe is what the player of g sees of it now.
func Observe(g *engine.Game) *Observation {
	res, _ := g.Result().MarshalText()
	return &Observation{
		Board: g.Board().Values(), Score: g.Score(), Moves: g.Moves(), MaxTile: g.MaxTile(),
		Won: g.Won(), Over: g.Over(), Result: string(res),
	}
}

// Response is the answer to init and to an action.
type Response struct {
	OK           bool          `json:"ok"`
	State        *GameState    `json:"state,omitempty"`
	Observation  *Observation  `json:"observation,omitempty"`
	LegalActions []ActionBody  `json:"legalActions"`
	Spec         *Spec         `json:"spec,omitempty"`
	Score        uint64        `json:"score"`
	GameOver     bool          `json:"gameOver"`
	Changed      *bool         `json:"changed,omitempty"`
	Gained       *uint64       `json:"gained,omitempty"`
	Spawn        *engine.Spawn `json:"spawn,omitempty"`
	// SeedCommitment is the commitment to a seed the server drew
	// ("sha256:" and the lower-case hex SHA-256 of the seed, as in a
	// replay), in every answer of such a game; Seed is the seed itself,
	// in the answers once the game is over for good.
	SeedCommitment string `json:"seedCommitment,omitempty"`
	Seed           string `json:"seed,omitempty"`
	// ThinkMs is the think time a signed server measured for the action
	// answered, in milliseconds: from handing out the state played to
	// receiving the action. TimesSeal is its MAC of the game's think
	// times so far ("hmac-sha256:HEX"), in every answer of a signed
	// server (docs/api.md, "Think times").
	ThinkMs   *uint32 `json:"thinkMs,omitempty"`
	TimesSeal string  `json:"timesSeal,omitempty"`
	// A refused action: HTTP 200 with ok false, the reason (a teaching
	// message) and error (illegal-move, finished, unsupported, no-undo,
	// not-stopped), with the state's observation, score and gameOver
	// and no new state: the state sent is still the one to play.
	Reason string `json:"reason,omitempty"`
	Error  string `json:"error,omitempty"`
}

// Spec describes a game: its rules and what a client may do.
type Spec struct {
	Game        string   `json:"game"`
	Profile     string   `json:"profile"`
	Rules       int      `json:"rules"`
	Title       string   `json:"title"`
	Rows        int      `json:"rows"`
	Cols        int      `json:"cols"`
	RNG         string   `json:"rng"`
	Replay      string   `json:"replay"` // ReplaySeeded or ReplaySpawnRecorded
	StateFormat string   `json:"stateFormat"`
	Signed      bool     `json:"signed"`
	Features    []string `json:"features"`
	Actions     []string `json:"actions"`
}

// The forms of Spec.Replay: how a client records a game of the spec as a
// replay that verifies. Seeded when the profile's seeded games spawn by
// the generator the server deals by (Spec.RNG); spawn-recorded when they
// spawn by another (hallabois-4x4's hallabois-lcg), since a replay may pin
// only its profile's own generator (docs/replay-format.md).
const (
	ReplaySeeded        = "seeded"
	ReplaySpawnRecorded = "spawn-recorded"
)

// ErrorBody is the body of an HTTP error answer.
type ErrorBody struct {
	Error string `json:"error"`
}
