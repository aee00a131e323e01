package tiers

func Hot() {} // want "hot finding"

func Warm() {}

func Cold() {}
