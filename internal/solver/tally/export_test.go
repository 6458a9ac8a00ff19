package tally

// DrawOne is drawOne, for the package's external tests.
var DrawOne = drawOne
