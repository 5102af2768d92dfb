// Package validation holds no code: its tests reproduce the papers' examples on the built-in scenes.
package validation
