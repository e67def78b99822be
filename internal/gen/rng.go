package gen

import "math"

// rng is a splitmix64 generator. The generator's output must be the same
// bytes for a seed on every Go release, so it does not use math/rand, whose
// derived helpers are allowed to change.
type rng struct{ s uint64 }

func newRNG(seed int64, stream uint64) *rng {
	r := &rng{s: uint64(seed)*0x9e3779b97f4a7c15 ^ stream*0xd1b54a32d192ed03}
	r.u64() // decorrelate neighbouring seeds
	return r
}

func (r *rng) u64() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// float returns a value in [0, 1).
func (r *rng) float() float64 { return float64(r.u64()>>11) / (1 << 53) }

// intn returns a value in [0, n).
func (r *rng) intn(n int) int { return int(r.u64() % uint64(n)) }

// norm returns a standard normal sample (Box-Muller).
func (r *rng) norm() float64 {
	u1 := 1 - r.float() // (0, 1]
	u2 := r.float()
	return float64(math.Sqrt(-2*math.Log(u1))) * float64(math.Cos(2*math.Pi*u2))
}

// lognormal returns exp(sigma*N(0,1)): median 1, heavy right tail.
func (r *rng) lognormal(sigma float64) float64 { return math.Exp(float64(sigma * r.norm())) }

const hexDigits = "0123456789abcdef"

// hex returns n random lower-case hex digits.
func (r *rng) hex(n int) string {
	b := make([]byte, n)
	var v uint64
	for i := range b {
		if i%16 == 0 {
			v = r.u64()
		}
		b[i] = hexDigits[v&15]
		v >>= 4
	}
	return string(b)
}

// pick returns one of xs.
func pick[T any](r *rng, xs ...T) T { return xs[r.intn(len(xs))] }
