package hallabois

import "testing"

// TestLCGVectors checks the generator against draws worked out by hand
// from its definition (1103515245*state + 12345, modulo 2^32, modulo
// 2^31-1).
func TestLCGVectors(t *testing.T) {
	for _, c := range []struct {
		seed  uint32
		draws []uint32
	}{
		// 0*a + c = 12345; 1103515245*12345 + 12345 = 13622895711870,
		// which is 3554416254 modulo 2^32 (the product wraps), and
		// 3554416254 - 2147483647 = 1406932607; then 1552571580512106060
		// mod 2^32 = 1758099020, and 1940089070789572245 mod 2^32 =
		// 419935893, both below 2^31-1.
		{0, []uint32{12345, 1406932607, 1758099020, 419935893}},
		// 2^32-1 is -1 modulo 2^32: 12345 - 1103515245 + 2^32 =
		// 3191464396, less 2^31-1 is 1043980749.
		{4294967295, []uint32{1043980749}},
		// 2: 2207042835 - 2147483647 = 59559188 (no wrap).
		{2, []uint32{59559188}},
	} {
		g := LCG{c.seed}
		for i, want := range c.draws {
			if got := g.Next(); got != want || g.State != want {
				t.Errorf("seed %d, draw %d: %d (state %d); want %d", c.seed, i+1, got, g.State, want)
			}
		}
	}
}

// TestSpawnVectors checks the spawn procedure by hand: cell first, value
// second, empty cells counted row by row.
func TestSpawnVectors(t *testing.T) {
	// Seed 0 on 2x2: draw 12345 % 4 = 1, the cell (1,0); draw 1406932607
	// % 4 = 3, the value 4. Then three empty cells (0, 2, 3): draw
	// 1758099020 % 3 = 2, the cell 3; draw 419935893 % 4 = 1, a 2.
	b, g := Start(2, 2, 0)
	if want := (Grid{2, 2, []uint64{0, 4, 0, 2}}); !b.Equal(want) {
		t.Errorf("the start of seed 0 on 2x2:\n%swant\n%s", b, want)
	}
	if g.State != 419935893 {
		t.Errorf("the state after the start is %d; want 419935893", g.State)
	}
	// A full board takes no tile and no draw.
	full := Grid{2, 2, []uint64{2, 4, 8, 16}}
	g = LCG{7}
	if cell, v := g.Spawn(full); cell != -1 || v != 0 || g.State != 7 {
		t.Errorf("a spawn on a full board gave cell %d, value %d, state %d", cell, v, g.State)
	}
	// One empty cell: it is taken whatever the draw; the value is the
	// second draw's. Seed 2: draws 59559188, then 1103515245*59559188 +
	// 12345 mod 2^32 mod 2^31-1.
	one := Grid{2, 2, []uint64{2, 0, 8, 16}}
	g = LCG{2}
	cell, v := g.Spawn(one)
	second := uint32((1103515245*uint64(59559188) + 12345) % (1 << 32) % 2147483647)
	if want := [4]uint64{2, 2, 2, 4}[second%4]; cell != 1 || v != want || one.Cells[1] != want || g.State != second {
		t.Errorf("a spawn on one empty cell: cell %d, value %d, state %d; want cell 1, value %d, state %d", cell, v, g.State, want, second)
	}
}

// TestSpawnWeights checks that the values come out 3:1 and the cells
// evenly, over many draws: a generator bug that favoured one would show.
func TestSpawnWeights(t *testing.T) {
	g := LCG{12345}
	var fours, cells [4]int
	const n = 40000
	for range n {
		b := NewBoard(2, 2)
		c, v := g.Spawn(b)
		cells[c]++
		if v == 4 {
			fours[0]++
		}
	}
	// Expected n/4 fours, sd sqrt(n*3/16) = 87; allow 6 sd.
	if d := fours[0] - n/4; d < -520 || d > 520 {
		t.Errorf("%d fours in %d spawns; expected about %d", fours[0], n, n/4)
	}
	for i, k := range cells {
		if d := k - n/4; d < -520 || d > 520 {
			t.Errorf("cell %d took %d of %d spawns; expected about %d", i, k, n, n/4)
		}
	}
}
