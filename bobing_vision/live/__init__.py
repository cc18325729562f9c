"""The capture loop: frames from a camera, video, image folder or stream -> settle detection ->
the dice reader -> the table game -> announcements (terminal, overlay window, speech).

    sources.open_source(spec)        a FrameSource (newest frame for live feeds, every frame for files)
    motion.MotionMeter / settle.SettleDetector   when a throw has settled (pure state machine)
    table.open_table(TableSetup)     the game and its journal, started
    loop.LiveLoop(source, reader, table, announcers, events).run()
"""
