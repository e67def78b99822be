package browsertests

import (
	"math"
	"strconv"
	"testing"
)

// lab converts "#rrggbb" (sRGB, D65) to CIELAB.
func lab(t testing.TB, hex string) [3]float64 {
	t.Helper()
	if len(hex) != 7 || hex[0] != '#' {
		t.Fatalf("colour %q is not #rrggbb", hex)
	}
	var c [3]float64
	for i := range 3 {
		v, err := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		if err != nil {
			t.Fatalf("colour %q: %v", hex, err)
		}
		x := float64(v) / 255
		if x <= 0.04045 {
			c[i] = x / 12.92
		} else {
			c[i] = math.Pow((x+0.055)/1.055, 2.4)
		}
	}
	X := (0.4124*c[0] + 0.3576*c[1] + 0.1805*c[2]) / 0.95047
	Y := 0.2126*c[0] + 0.7152*c[1] + 0.0722*c[2]
	Z := (0.0193*c[0] + 0.1192*c[1] + 0.9505*c[2]) / 1.08883
	f := func(t float64) float64 {
		if t > 0.008856 {
			return math.Cbrt(t)
		}
		return 7.787*t + 16.0/116
	}
	return [3]float64{116*f(Y) - 16, 500 * (f(X) - f(Y)), 200 * (f(Y) - f(Z))}
}

// deltaE2000 is the CIEDE2000 colour difference of two CIELAB colours.
func deltaE2000(p, q [3]float64) float64 {
	rad, deg := math.Pi/180, 180/math.Pi
	L1, a1, b1 := p[0], p[1], p[2]
	L2, a2, b2 := q[0], q[1], q[2]
	cb := (math.Hypot(a1, b1) + math.Hypot(a2, b2)) / 2
	g := 0.5 * (1 - math.Sqrt(math.Pow(cb, 7)/(math.Pow(cb, 7)+math.Pow(25, 7))))
	a1p, a2p := (1+g)*a1, (1+g)*a2
	c1p, c2p := math.Hypot(a1p, b1), math.Hypot(a2p, b2)
	hue := func(b, a float64) float64 {
		h := math.Atan2(b, a) * deg
		if h < 0 {
			h += 360
		}
		return h
	}
	h1p, h2p := hue(b1, a1p), hue(b2, a2p)
	dLp, dCp := L2-L1, c2p-c1p
	var dhp float64
	switch {
	case c1p*c2p == 0:
	case math.Abs(h2p-h1p) <= 180:
		dhp = h2p - h1p
	case h2p-h1p > 180:
		dhp = h2p - h1p - 360
	default:
		dhp = h2p - h1p + 360
	}
	dHp := 2 * math.Sqrt(c1p*c2p) * math.Sin(dhp/2*rad)
	lbp, cbp := (L1+L2)/2, (c1p+c2p)/2
	var hbp float64
	switch {
	case c1p*c2p == 0:
		hbp = h1p + h2p
	case math.Abs(h1p-h2p) <= 180:
		hbp = (h1p + h2p) / 2
	case h1p+h2p < 360:
		hbp = (h1p + h2p + 360) / 2
	default:
		hbp = (h1p + h2p - 360) / 2
	}
	T := 1 - 0.17*math.Cos((hbp-30)*rad) + 0.24*math.Cos(2*hbp*rad) + 0.32*math.Cos((3*hbp+6)*rad) - 0.20*math.Cos((4*hbp-63)*rad)
	dth := 30 * math.Exp(-math.Pow((hbp-275)/25, 2))
	rc := 2 * math.Sqrt(math.Pow(cbp, 7)/(math.Pow(cbp, 7)+math.Pow(25, 7)))
	sl := 1 + 0.015*math.Pow(lbp-50, 2)/math.Sqrt(20+math.Pow(lbp-50, 2))
	sc, sh := 1+0.045*cbp, 1+0.015*cbp*T
	rt := -math.Sin(2*dth*rad) * rc
	return math.Sqrt(math.Pow(dLp/sl, 2) + math.Pow(dCp/sc, 2) + math.Pow(dHp/sh, 2) + rt*(dCp/sc)*(dHp/sh))
}

// TestDeltaE2000 holds the implementation to the published test pairs of
// Sharma, Wu and Dalal (2005).
func TestDeltaE2000(t *testing.T) {
	for _, c := range []struct {
		p, q [3]float64
		want float64
	}{
		{[3]float64{50, 2.6772, -79.7751}, [3]float64{50, 0, -82.7485}, 2.0425},
		{[3]float64{50, 2.5, 0}, [3]float64{50, 0, -2.5}, 4.3065},
		{[3]float64{50, 2.5, 0}, [3]float64{73, 25, -18}, 27.1492},
		{[3]float64{60.2574, -34.0099, 36.2677}, [3]float64{60.4626, -34.1751, 39.4387}, 1.2644},
		{[3]float64{2.0776, 0.0795, -1.135}, [3]float64{0.9033, -0.0636, -0.5514}, 0.9082},
	} {
		if got := deltaE2000(c.p, c.q); math.Abs(got-c.want) > 1e-4 {
			t.Errorf("ΔE2000(%v, %v) = %.4f, want %.4f", c.p, c.q, got, c.want)
		}
	}
}

// minDeltaE is the smallest CIEDE2000 difference between two colours of cs
// and the pair.
func minDeltaE(t testing.TB, cs []string) (float64, string, string) {
	t.Helper()
	best, x, y := math.Inf(1), "", ""
	for i := range cs {
		for j := i + 1; j < len(cs); j++ {
			if d := deltaE2000(lab(t, cs[i]), lab(t, cs[j])); d < best {
				best, x, y = d, cs[i], cs[j]
			}
		}
	}
	return best, x, y
}
