-- SPDX-License-Identifier: ISC
-- A MIDI source for tests/scripts/ardour/pluck.lua: note 60 at velocity 127
-- half a second into every second, its note-off 0.2 s later (a keyboard
-- played into the track).
ardour {
	["type"]    = "dsp",
	name        = "Pendula test note source",
	category    = "Utility",
	license     = "ISC",
	author      = "Pendula tests",
	description = [[Plays note 60 at velocity 127 once a second, for the Pendula Ardour test]]
}

function dsp_ioconfig ()
	return { { midi_in = 1, midi_out = 1, audio_in = 0, audio_out = 0}, }
end

function dsp_init (rate)
	srate = rate
	pos = 0
end

function dsp_run (_, _, n_samples)
	local m = 1
	for i = 1, n_samples do
		local p = (pos + i - 1) % srate
		if p == srate // 2 then
			midiout[m] = { time = i, data = { 0x90, 60, 127 } }
			m = m + 1
		elseif p == srate // 2 + srate // 5 then
			midiout[m] = { time = i, data = { 0x80, 60, 0 } }
			m = m + 1
		end
	end
	pos = pos + n_samples
end
