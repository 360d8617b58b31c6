-- SPDX-License-Identifier: ISC
--
-- What a Pendula plugin alone on a track sends to Ardour's master bus,
-- headless (ardour7-lua, the Dummy audio backend).  Run by
-- tests/scripts/test_ardour.sh:
--
--   ardour7-lua master.lua URI DIR [TRACK [loose]]
--     makes a session in DIR with one track as Ardour makes it by default
--     (strict I/O as the preferences say): TRACK "midi" (the default) or
--     "audio" (a stereo audio track, no input); the plugin URI with its
--     defaults, then the test's MIDI counter (pendula_midi_count.lua, where
--     a synth would go); a peak meter (pendula_peak_meter.lua) at the end of
--     the master bus; rolls the transport 2 s.  The master's peak must stay
--     at or below -60 dBFS (docs/HOSTS.md, "Ardour"), and on a MIDI track
--     the control changes must still reach the next plugin of the track
--     (on an audio track the count is printed: a MIDI effect there has no
--     MIDI to pass on unless Ardour gives the track a MIDI path).
--     It prints how Ardour classifies the plugin (category, instrument).
--     "loose": the track without strict I/O, whatever the preference.
--
-- Every check prints "ok: ..." or "FAIL: ..."; the last line is "ALL OK"
-- or "N FAILED".

local uri, dir, track = arg[1], arg[2], arg[3] or "midi"
local fails = 0
local function check(ok, what)
	print((ok and "ok: " or "FAIL: ") .. what)
	if not ok then fails = fails + 1 end
end

AudioEngine:set_backend("None (Dummy)", "", "")
AudioEngine:start(false)

local s = create_session(dir, "pendula", 48000)
check(s ~= nil, "session created")
local strict = ARDOUR.config():get_strict_io() and arg[4] ~= "loose"
print("strict I/O for new tracks (Ardour's preference, unless loose): " .. tostring(strict))
local midi, audio = ARDOUR.DataType("midi"), ARDOUR.DataType("audio")
local info = ARDOUR.LuaAPI.new_plugin_info(uri, ARDOUR.PluginType.LV2)
if not info:isnil() then
	print("Ardour's classification: category " .. info.category .. ", instrument " ..
		tostring(info:is_instrument()))
end
local tl
if track == "audio" then
	tl = s:new_audio_track(2, 2, nil, 1, "Pendula", ARDOUR.PresentationInfo.max_order,
		ARDOUR.TrackMode.Normal, true)
	tl:front():set_strict_io(strict)
else
	tl = s:new_midi_track(ARDOUR.ChanCount(midi, 1), ARDOUR.ChanCount(audio, 2), strict,
		ARDOUR.PluginInfo(), nil, nil, 1, "Pendula", ARDOUR.PresentationInfo.max_order,
		ARDOUR.TrackMode.Normal, true)
end
print("track: " .. track)
local tr = tl:front()
local p = ARDOUR.LuaAPI.new_plugin(s, uri, ARDOUR.PluginType.LV2, "")
check(not p:isnil(), "plugin " .. uri .. " instantiated")
if p:isnil() then os.exit(1) end
tr:add_processor_by_index(p, 0, nil, true)
local counter = ARDOUR.LuaAPI.new_luaproc(s, "Pendula test MIDI counter")
local meter = ARDOUR.LuaAPI.new_luaproc(s, "Pendula test peak meter")
check(not counter:isnil() and not meter:isnil(), "the test's MIDI counter and peak meter load")
if counter:isnil() or meter:isnil() then os.exit(1) end
tr:add_processor_by_index(counter, 1, nil, true)
s:master_out():add_processor_by_index(meter, -1, nil, true)
local out = p:to_insert():output_streams()
print("Pendula's outputs in the track: " .. out:n_audio() .. " audio, " .. out:n_midi() .. " MIDI")

s:request_transport_speed(1.0, ARDOUR.TransportRequestSource.TRS_UI)
s:request_roll(ARDOUR.TransportRequestSource.TRS_UI)
ARDOUR.LuaAPI.usleep(2000000)
check(s:transport_sample() > 24000, "the transport rolled (" .. s:transport_sample() .. " samples)")
local peak = meter:to_insert():plugin(0):to_luaproc():shmem():to_float(0):array()[1]
local db = peak > 0 and 20 * math.log(peak, 10) or -math.huge
print(string.format("master peak: %g (%.1f dBFS)", peak, db))
check(db <= -60, "the master bus gets nothing above -60 dBFS from Pendula alone")
local cc = counter:to_insert():plugin(0):to_luaproc():shmem():atomic_get_int(2)
print("MIDI after Pendula: " .. cc .. " control changes")
if track == "midi" then
	check(cc > 0, "control changes reach the next plugin of the track")
end
s:request_stop(false, false, ARDOUR.TransportRequestSource.TRS_UI)
ARDOUR.LuaAPI.usleep(200000)
-- Lua must let go of the routes before the session closes (else Ardour
-- 7.3 frees them after its engine, and crashes at exit).
tl, tr, p, counter, meter, out, info = nil, nil, nil, nil, nil, nil, nil
collectgarbage()
close_session()
print(fails == 0 and "ALL OK" or (fails .. " FAILED"))
