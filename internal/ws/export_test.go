package ws

// PumpLinger is how long an idle writer's goroutine outlives its last pass.
const PumpLinger = pumpLinger
