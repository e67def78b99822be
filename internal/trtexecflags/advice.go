package trtexecflags

// LayerInfoReleases are the releases whose trtexec exports layer
// information (--exportLayerInfo; IEngineInspector came with it): any file
// of layer info was written by one of them.
func LayerInfoReleases() Range {
	f, _ := Lookup("--exportLayerInfo")
	return Range{Lo: f.Added}
}

// LayerInfoAdvice is the one wording of how to get an engine's detailed
// layer information (layers, the --exportLayerInfo file) and, when
// profile is not "", its per-layer profile (--exportProfile) with trtexec.
//
// --profilingVerbosity is fixed when the engine is BUILT: the engine keeps
// what its build asked for (from 8.2 a default build keeps layer names
// only) and IEngineInspector, which --exportLayerInfo uses, reports only
// that. So a --loadEngine export is detailed only for an engine built with
// --profilingVerbosity=detailed; any other engine is rebuilt with it. Both
// options came with --exportLayerInfo's first release; when r may hold an
// older release (or is unknown) the advice names that release.
func LayerInfoAdvice(layers, profile string, r Range) string {
	exports := "--exportLayerInfo=" + layers
	if profile != "" {
		exports += " --exportProfile=" + profile
	}
	s := "if the engine was built with --profilingVerbosity=detailed, export from it: trtexec --loadEngine=ENGINE --profilingVerbosity=detailed " + exports +
		"; otherwise rebuild it with its build options plus --profilingVerbosity=detailed " + exports +
		" (an engine built without it keeps layer names only)"
	if first := LayerInfoReleases().Lo; r.IsZero() || r.Lo.Less(first) {
		s = "with TensorRT " + first.String() + " or newer (--exportLayerInfo and --profilingVerbosity came with it): " + s
	}
	return s
}
