package cli

// A valid two-layer dump pair, shared by tests on every platform.
const (
	okLayers  = `{"Layers":[{"Name":"a","LayerType":"CaskConvolution","Inputs":[{"Name":"x","Dimensions":[1,3],"Format/Datatype":"Half"}],"Outputs":[{"Name":"y","Dimensions":[1,3],"Format/Datatype":"Half"}]},{"Name":"b","LayerType":"CaskConvolution","Inputs":[{"Name":"y","Dimensions":[1,3],"Format/Datatype":"Half"}],"Outputs":[{"Name":"z","Dimensions":[1,3],"Format/Datatype":"Half"}]}],"Bindings":["x","z"]}`
	okProfile = `[{"count":10},{"name":"a","timeMs":1,"averageMs":0.1,"medianMs":0.1,"percentage":50},{"name":"b","timeMs":1,"averageMs":0.1,"medianMs":0.1,"percentage":50}]`
)
